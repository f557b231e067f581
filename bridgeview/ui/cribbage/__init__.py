"""The cribbage tab: a HALSCRIB game replayed step by step on a painted table (``view.py``)."""
