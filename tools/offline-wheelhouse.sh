#!/usr/bin/env bash
# Build a wheelhouse for installing triage on a machine without internet access (most Ascend hosts).
#
# Run it on a connected machine (any OS or CPU: the wheels are chosen for the TARGET), copy the
# folder it writes to the Ascend host, and install there with no index:
#
#   tools/offline-wheelhouse.sh --arch aarch64 --python 3.10          # on the connected machine
#   scp -r wheelhouse-aarch64-py3.10 npu-host:                          # or a USB stick
#   python3 -m venv .venv && .venv/bin/pip install --no-index \
#       --find-links wheelhouse-aarch64-py3.10 ascend-triage                # on the Ascend host
#
# Options:
#   --arch aarch64|x86_64   the target's CPU (`uname -m` there; Kunpeng servers are aarch64)   [aarch64]
#   --python X.Y            the target's Python (`python3 -V` there)                            [3.10]
#   --glibc X.Y             the oldest glibc wheels may need (`ldd --version` there)            [2.17]
#   --out DIR               where to write the wheels                [wheelhouse-<arch>-py<X.Y>]
#   --dry-run               print the pip commands instead of running them
#
# Only binary wheels are fetched (--only-binary=:all:), so nothing is compiled on either machine.
# Hyperscan is optional: when it has no wheel for the target, triage uses its pure-Python matcher
# and the script says so. The folder also gets INSTALL.txt with the commands for the target.
set -euo pipefail

arch=aarch64
py=3.10
glibc=2.17
out=""
dry=0
while [ $# -gt 0 ]; do
    case "$1" in
        --arch) arch="$2"; shift 2 ;;
        --python) py="$2"; shift 2 ;;
        --glibc) glibc="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --dry-run) dry=1; shift ;;
        -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "offline-wheelhouse: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
case "$arch" in
    aarch64|x86_64) ;;
    *) echo "offline-wheelhouse: --arch must be aarch64 or x86_64, not $arch" >&2; exit 2 ;;
esac
if ! [[ "$py" =~ ^3\.[0-9]+$ ]]; then
    echo "offline-wheelhouse: --python must look like 3.10, not $py" >&2; exit 2
fi
if ! [[ "$glibc" =~ ^2\.[0-9]+$ ]]; then
    echo "offline-wheelhouse: --glibc must look like 2.17, not $glibc" >&2; exit 2
fi
repo="$(cd "$(dirname "$0")/.." && pwd)"
out="${out:-wheelhouse-$arch-py$py}"
python="${PYTHON:-python3}"
platform="manylinux_${glibc/./_}_$arch"  # pip also accepts the older manylinux tags below it
target=(--only-binary=:all: --platform "$platform" --python-version "$py" --implementation cp)

# triage's own dependencies, from pyproject.toml; hyperscan apart (optional)
mapfile -t requirements < <("$python" - "$repo/pyproject.toml" <<'PY'
import re
import sys

text = open(sys.argv[1], encoding="utf-8").read()
try:
    import tomllib
    deps = tomllib.loads(text)["project"]["dependencies"]
except ImportError:  # Python 3.10: the list is plain enough to read
    block = re.search(r"^dependencies = \[(.*?)^\]", text, re.S | re.M).group(1)
    deps = re.findall(r'^\s*"([^"]+)"', block, re.M)
for dep in deps:
    print(dep.split(";")[0].strip())
PY
)
required=()
optional=()
for req in "${requirements[@]}"; do
    if [[ "$req" == hyperscan* ]]; then optional+=("$req"); else required+=("$req"); fi
done

run() {
    if [ "$dry" = 1 ]; then printf '%q ' "$@"; echo; else "$@"; fi
}

run mkdir -p "$out"
# triage itself: pure Python, one wheel for every platform
run "$python" -m pip wheel --no-deps --wheel-dir "$out" "$repo"
run "$python" -m pip download "${target[@]}" --dest "$out" "${required[@]}"
for req in "${optional[@]}"; do
    if ! run "$python" -m pip download "${target[@]}" --no-deps --dest "$out" "$req"; then
        echo "offline-wheelhouse: no $req wheel for $platform / Python $py: triage will use its pure-Python matcher" >&2
    fi
done
if [ "$dry" = 0 ]; then
    cat > "$out/INSTALL.txt" <<EOF
Wheels for triage on $arch, Python $py, glibc >= $glibc. On the target (no internet needed):

    python3 -m venv .venv
    .venv/bin/pip install --no-index --find-links $(basename "$out") ascend-triage
    . .venv/bin/activate && triage version
EOF
    echo "offline-wheelhouse: wrote $out ($(ls "$out" | grep -c '\.whl$') wheels); copy it to the target and see $out/INSTALL.txt"
fi
