"""The reduce step: a merged summary becomes the ranked report. :mod:`.verdict` runs it (fact
checks, ranking, symptoms, the unexplained lead), :mod:`.peers` ties a peer wait to its rank's
earlier error, :mod:`.ranks` gives lines their ranks, :mod:`.links` links symptoms to causes origin
by origin, and :mod:`.cluster` draws the cluster verdict over ranks and nodes."""
