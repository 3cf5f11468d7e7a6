"""The sports data query service: store, ingesters, models, jobs and the HTTP API."""
