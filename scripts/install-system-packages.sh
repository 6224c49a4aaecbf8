#!/usr/bin/env bash
# Debian packages boggle-cv uses, installed with apt-get (run as root, or with sudo).
#   tesseract-ocr, tesseract-ocr-eng   the second reading engine (--engine tesseract|both)
#   fonts-*                            typefaces the synthetic renderer draws letters with
#   chromium                           the web page's end-to-end tests (tests only)
#   axe-core (npm)                     the accessibility checks of those tests (tests only), into
#                                      node_modules/ of this checkout, where the tests look for it;
#                                      Debian's nodejs and npm are installed first when npm is missing
# Usage: bash scripts/install-system-packages.sh [--runtime]   (--runtime: no test-only packages)
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
AXE_CORE=axe-core@4.14.1
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
packages=(tesseract-ocr tesseract-ocr-eng
  fonts-dejavu-core fonts-liberation fonts-freefont-ttf fonts-noto-core fonts-open-sans
  fonts-roboto fonts-lato)
tests=1
if [ "${1:-}" = "--runtime" ]; then tests=0; fi
if [ "$tests" = 1 ]; then
  packages+=(chromium)
  if ! command -v npm >/dev/null 2>&1; then packages+=(nodejs npm); fi
fi
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
echo "installed: ${packages[*]}"
if [ "$tests" = 1 ]; then
  repo=$(cd "$(dirname "$0")/.." && pwd)
  npm install --prefix "$repo" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "$AXE_CORE" >/dev/null
  echo "installed: $AXE_CORE in $repo/node_modules"
fi
