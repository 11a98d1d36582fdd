"""Safe YAML loading that remembers the line of every value and rejects duplicate keys.

Only plain data is built (PyYAML's safe constructor for scalars): no tags that construct
objects, so a rule file cannot run code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from triage.errors import RuleProblem

if TYPE_CHECKING:
    import yaml

Path_ = tuple[Any, ...]


class YamlDocument:
    """A parsed YAML document: ``data`` (plain Python) and ``line_of(path)`` (1-based)."""

    def __init__(self, data: Any, lines: dict[Path_, int]):
        self.data = data
        self._lines = lines

    def line_of(self, path: Path_) -> int:
        """The line of the value at ``path``, or of its nearest ancestor that has one."""
        path = tuple(path)
        while path:
            if path in self._lines:
                return self._lines[path]
            path = path[:-1]
        return self._lines.get((), 1)


def load_yaml(text: str, filename: str) -> YamlDocument:
    """Parse ``text`` safely; raise :class:`RuleProblem`-carrying ``ValueError`` on bad YAML.

    Raises ``YamlProblem`` (a ``ValueError``) with file and line for syntax errors, duplicate
    keys, and tags that would construct objects.
    """
    import yaml  # imported here: a run whose rules come from the cache never parses YAML

    # libyaml's parser where PyYAML was built with it (10x faster); both only build plain data here.
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)(text)
    try:
        node = loader.get_single_node()
        lines: dict[Path_, int] = {}
        data = _convert(yaml, node, (), lines, loader, filename) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        raise YamlProblem(RuleProblem(filename, line, "", f"invalid YAML: {exc.problem or exc}")) from None
    except yaml.YAMLError as exc:
        raise YamlProblem(RuleProblem(filename, 1, "", f"invalid YAML: {exc}")) from None
    finally:
        loader.dispose()
    return YamlDocument(data, lines)


class YamlProblem(ValueError):
    """A YAML file that cannot be read as plain data; carries a :class:`RuleProblem`."""

    def __init__(self, problem: RuleProblem):
        self.problem = problem
        super().__init__(str(problem))


_PLAIN_TAGS = {f"tag:yaml.org,2002:{t}" for t in ("map", "seq", "str", "int", "float", "bool", "null",
                                                   "timestamp")}


def _convert(yaml, node: yaml.Node, path: Path_, lines: dict, loader: yaml.SafeLoader, filename: str) -> Any:
    """``node`` as plain data (``yaml``: the module, imported once by :func:`load_yaml`)."""
    lines[path] = node.start_mark.line + 1
    if node.tag not in _PLAIN_TAGS:
        raise YamlProblem(RuleProblem(filename, node.start_mark.line + 1, _dotted(path),
                                      f"unsupported YAML tag {node.tag}"))
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise YamlProblem(RuleProblem(filename, key_node.start_mark.line + 1, _dotted(path), "complex key"))
            key = loader.construct_object(key_node)
            if key == "<<":
                raise YamlProblem(RuleProblem(filename, key_node.start_mark.line + 1, _dotted(path),
                                              "merge keys (<<) are not supported"))
            if key in out:
                raise YamlProblem(RuleProblem(filename, key_node.start_mark.line + 1, _dotted(path + (key,)),
                                              f"duplicate key `{key}`"))
            out[key] = _convert(yaml, value_node, path + (key,), lines, loader, filename)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_convert(yaml, item, path + (i,), lines, loader, filename) for i, item in enumerate(node.value)]
    try:
        return loader.construct_object(node, deep=True)
    except yaml.constructor.ConstructorError as exc:
        raise YamlProblem(RuleProblem(filename, node.start_mark.line + 1, _dotted(path),
                                      f"unsupported YAML value: {exc.problem}")) from None


def _dotted(path: Path_) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


dotted_path = _dotted
