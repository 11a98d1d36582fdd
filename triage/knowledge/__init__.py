"""The knowledge model: the rule schema (:mod:`.schema`), YAML with line numbers
(:mod:`.yaml_source`), the regex dialect (:mod:`.dialect`), conditions (:mod:`.conditions`), compiled
rules (:mod:`.compiled`), loading and checking rule packs (:mod:`.loader`, :mod:`.rulecheck`,
:mod:`.lint`), the order of findings (:mod:`.rank`), and the facts, release tables and fact checks
of ``compat/`` (:mod:`.compat`)."""
