"""Import path of rule loading before the packages (docs/api.md): see :mod:`triage.knowledge.loader`."""

from triage.knowledge.loader import (  # noqa: F401
    RuleSet,
    builtin_rules_dir,
    entry_point_packs,
    load_rules,
    rule_files,
    user_packs_from_env,
)
