"""Translation engines behind one protocol (see base.py): argos (CTranslate2) and gloss."""
