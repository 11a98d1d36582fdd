"""Helpers every stage may use: the garbage-collector pause of start-up, the on-disk cache of
built rule sets and matchers, and plural forms of counts. Imports no other stage."""
