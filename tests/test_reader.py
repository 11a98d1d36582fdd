"""Reader: true line numbers, nothing dropped, whatever the line ends."""

from __future__ import annotations

import gzip
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from triage.errors import InputError
from triage.inputs.reader import BlockReader, decode_line
from triage.inputs.sources import Source, expand, open_source


def lines_of(data: bytes, **kw) -> list[tuple[int, bytes]]:
    reader = BlockReader(io.BytesIO(data), **kw)
    return [item for block in reader for item in block.lines()]


def test_lf_and_crlf_lines_are_numbered_like_grep():
    assert lines_of(b"a\r\nb\n\nc") == [(1, b"a"), (2, b"b"), (3, b""), (4, b"c")]


def test_cr_inside_lf_input_is_kept():
    # A lone \r in \n-terminated input is part of the line (grep -n counts it so).
    assert lines_of(b"a\rb\nc\n") == [(1, b"a\rb"), (2, b"c")]


def test_cr_only_input_is_split_on_cr():
    assert lines_of(b"one\rtwo\rthree") == [(1, b"one"), (2, b"two"), (3, b"three")]


def test_empty_input_has_no_lines():
    reader = BlockReader(io.BytesIO(b""))
    assert list(reader) == [] and reader.lines_read == 0


def test_small_blocks_keep_numbering_across_block_edges():
    data = b"".join(b"line %d\n" % i for i in range(1, 500))
    got = lines_of(data, block_size=7)
    assert got == [(i, b"line %d" % i) for i in range(1, 500)]


def test_over_long_line_is_truncated_counted_and_reported():
    data = b"short\n" + b"x" * 5000 + b"\nafter\n"
    reader = BlockReader(io.BytesIO(data), block_size=1024, max_line=1000)
    got = [item for block in reader for item in block.lines()]
    assert got == [(1, b"short"), (2, b"x" * 1000), (3, b"after")]
    assert reader.truncated == [(2, 5000)]
    assert reader.lines_read == 3


def test_invalid_utf8_is_replaced_not_dropped():
    assert decode_line(b"ok \xff\xfe end") == "ok \ufffd\ufffd end"


def test_gzip_is_read_transparently(tmp_path):
    path = tmp_path / "log.gz"
    path.write_bytes(gzip.compress(b"first\nsecond\n"))
    with open_source(Source(str(path), str(path))) as stream:
        assert [line for block in BlockReader(stream) for _, line in block.lines()] == [b"first", b"second"]


def test_truncated_gzip_is_an_input_error(tmp_path):
    path = tmp_path / "log.gz"
    body = b"".join(b"line %d of the log\n" % i for i in range(20000))
    packed = gzip.compress(body)
    path.write_bytes(packed[: len(packed) // 2])
    with pytest.raises(InputError, match="truncated or corrupt"), open_source(Source(str(path), str(path))) as s:
        list(BlockReader(s))


def test_missing_file_is_a_one_line_input_error(tmp_path):
    with pytest.raises(InputError, match="no such file"), open_source(Source("x", str(tmp_path / "absent.log"))):
        pass
    with pytest.raises(InputError, match="no such file or directory"):
        expand([str(tmp_path / "absent")])


def test_directory_expands_to_sorted_files(tmp_path):
    (tmp_path / "b.log").write_text("b")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.log").write_text("a")
    assert [s.name for s in expand([str(tmp_path)])] == [str(tmp_path / "b.log"), str(tmp_path / "sub" / "a.log")]


line_text = st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"").replace(b"\r", b""))


@settings(max_examples=300, deadline=None)
@given(st.lists(line_text, min_size=1, max_size=40), st.sampled_from([b"\n", b"\r\n"]),
       st.booleans(), st.integers(min_value=1, max_value=64))
def test_any_lf_input_keeps_every_line_and_number(lines, end, final_newline, block_size):
    data = end.join(lines) + (end if final_newline else b"")
    got = lines_of(data, block_size=block_size)
    expected = list(lines)
    if not final_newline and expected and expected[-1] == b"" and len(expected) > 1:
        expected = expected[:-1]  # "a\n" + "" is one line, as for grep
    if data == b"":
        expected = []
    assert [n for n, _ in got] == list(range(1, len(expected) + 1))
    assert [line for _, line in got] == expected
