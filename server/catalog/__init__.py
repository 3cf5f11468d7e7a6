"""Declarations the whole service reads: levels, sports and their stat codes, nations.

These are data, not code: adding a level or a stat code is a row here.
"""
