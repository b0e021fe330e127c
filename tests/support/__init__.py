"""Test support shared by every test directory (importable as ``support``: pytest puts tests/ on the path)."""
