"""Ingesters: every source (the simulator, Retrosheet, Lahman, feeds) writes through one loader."""
