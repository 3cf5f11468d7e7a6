"""Real football (level FC), one module per source (docs/football.md)."""
