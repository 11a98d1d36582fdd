"""The knowledge tools, a face on top beside the API and the CLI: catalog coverage
(:mod:`.coverage`), the rules' self-test (:mod:`.selftest`), why a rule did not fire (:mod:`.why`),
rule drafts (:mod:`.suggest`), the catalog page (:mod:`.catalog`) and the corpus (:mod:`.corpus`)."""
