"""Gongzhu bots: the rule styles of :mod:`.rulebots` (the IME bot kinds come with the plug-in)."""
