"""Readers and writers for the i2b2/VA 2011 files and for CoNLL-2012."""
