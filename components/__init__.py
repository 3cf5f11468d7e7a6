"""Reusable dashboard parts: URL-bound filters, tables, plotly chart builders, page chrome."""
