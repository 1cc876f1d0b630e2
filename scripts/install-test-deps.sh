#!/usr/bin/env bash
# Installs everything the test suite needs that npm does not: the Debian PDF
# engines and bubblewrap (their sandbox), nginx (gateway test), Chromium (browser tests; never a downloaded
# browser), xmllint (CAP schema checks), Postgres and Redis servers when absent. Idempotent: packages already
# present are not fetched again, so CI on a prepared machine spends no time here.
set -euo pipefail

packages=(
  ghostscript qpdf poppler-utils mupdf-tools
  ocrmypdf tesseract-ocr-spa tesseract-ocr-eng
  libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui
  fonts-dejavu-core
  bubblewrap
  chromium
  openssl
  libxml2-utils
)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || packages+=(nginx-light)
command -v pg_ctlcluster >/dev/null 2>&1 || packages+=(postgresql)
command -v redis-server >/dev/null 2>&1 || packages+=(redis-server)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-test-deps: all system packages present"
  exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-test-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" || {
  # nginx-light is Debian's name; other distributions ship plain nginx.
  if printf '%s\n' "${missing[@]}" | grep -qx nginx-light; then
    mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sed 's/^nginx-light$/nginx/')
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  else
    exit 1
  fi
}
