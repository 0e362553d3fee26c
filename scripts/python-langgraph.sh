#!/usr/bin/env bash
# Installs LangGraph Python into .cache/langgraph-python (nothing system-wide), for the Python
# differential suite (src/differential/python.test.ts): emitted modules run on the real thing.
#
# Pinned, wheels only, from the package index pip is configured with. langchain-core 1.6
# requires `langchain-protocol` (the wire types of LangChain's streaming protocol), which the
# local index does not have; nothing a graph run touches uses it, so a stub module that answers
# every name with an empty class stands in for it. Exit 0 when LangGraph imports afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
target=.cache/langgraph-python
if PYTHONPATH="$target" python3 -c 'import langgraph.graph, langgraph.prebuilt' 2>/dev/null; then
  echo "LangGraph Python is in $target"
  exit 0
fi
rm -rf "$target"
mkdir -p "$target"
# A local mirror, when the machine has one, is the index: no waiting on an unreachable PyPI.
index=()
[ -d /opt/pypi/simple ] && index=(--index-url file:///opt/pypi/simple)
pip_install() {
  python3 -m pip install --quiet --disable-pip-version-check --no-input --retries 1 --timeout 15 \
    "${index[@]}" --target "$target" --only-binary :all: "$@" 2>&1 |
    grep -v -e "as the 'root' user" -e "is ignored: it is neither" || true
}
pip_install --no-deps langgraph==1.2.12 langchain-core==1.6.5 langgraph-checkpoint==4.2.0 \
  langgraph-prebuilt==1.1.0 langgraph-sdk==0.4.5
pip_install 'pydantic>=2.7.4,<3' 'xxhash>=3.5.0' 'ormsgpack>=1.12.0' 'jsonpatch>=1.33,<2' \
  'langsmith>=0.3.45,<1' 'orjson>=3.11.5' 'packaging>=23.2' 'pyyaml>=5.3,<7' \
  'tenacity>=8.1,<10,!=8.4.0' 'typing-extensions>=4.7,<5' 'uuid-utils>=0.12,<1' 'httpx>=0.25.2,<1'
if ! PYTHONPATH="$target" python3 -c 'import langchain_protocol' 2>/dev/null; then
  mkdir -p "$target/langchain_protocol"
  stub='# A stand-in for langchain-protocol (see scripts/python-langgraph.sh): every name is an empty class.
def __getattr__(name):
    return type(name, (dict,), {})'
  printf '%s\n' "$stub" >"$target/langchain_protocol/__init__.py"
  printf '%s\n' "$stub" >"$target/langchain_protocol/protocol.py"
fi
PYTHONPATH="$target" python3 -c 'import langgraph.graph, langgraph.prebuilt, langgraph.types'
echo "LangGraph Python installed in $target"
