"""zhen: offline Chinese→English translation of technical notes, terms locked to one glossary."""

__version__ = "0.2.1"
