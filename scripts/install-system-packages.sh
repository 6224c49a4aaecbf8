#!/usr/bin/env bash
# Debian packages boggle-cv uses, installed with apt-get (run as root, or with sudo).
#   tesseract-ocr, tesseract-ocr-eng   the second reading engine (--engine tesseract|both)
#   fonts-*                            typefaces the synthetic renderer draws letters with
#   chromium                           the web page's end-to-end test (tests only)
# Usage: bash scripts/install-system-packages.sh [--runtime]   (--runtime: no test-only packages)
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
packages=(tesseract-ocr tesseract-ocr-eng
  fonts-dejavu-core fonts-liberation fonts-freefont-ttf fonts-noto-core fonts-open-sans
  fonts-roboto fonts-lato)
if [ "${1:-}" != "--runtime" ]; then packages+=(chromium); fi
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
echo "installed: ${packages[*]}"
