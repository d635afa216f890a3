"""Gongzhu (拱猪): rules core (``rules``), rule bots and, once written, the IME plug-in."""
