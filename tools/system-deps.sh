#!/usr/bin/env bash
# What the test suite needs from the system besides Python: `make test` runs this first with the
# Makefile's SYSTEM_PACKAGES as arguments (`make system-deps`).
# On Debian/Ubuntu as root it installs whatever is missing (idempotent, non-interactive);
# elsewhere it names what is missing and how to install it, and the tests that need it are
# skipped with that reason (with CI=true they fail instead).
#
#   chromium                          the dashboard's real-browser tests (Playwright drives it)
#   postgresql                        the club server's tests against a real PostgreSQL
#   librsvg2-bin                      rsvg-convert: training.artwork renders the printed-deck themes
#   fonts-dejavu-core/-extra          the TrueType faces vision.card_faces draws card designs with
#   apt package lists                 training.artwork fetches the themes with `apt-get download`
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

pg_bindir() {  # the folder of initdb/pg_ctl/postgres, or nothing
    if command -v postgres >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
        dirname "$(readlink -f "$(command -v postgres)")"
        return 0
    fi
    ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true
}

present() {  # whether what a Debian package gives the tests is here (on any system)
    case "$1" in
        chromium) [ -x /usr/bin/chromium ] ;;
        librsvg2-bin) command -v rsvg-convert >/dev/null 2>&1 ;;
        fonts-dejavu-core) [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] ;;
        fonts-dejavu-extra) [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans-ExtraLight.ttf ] ;;
        postgresql) [ -n "$(pg_bindir)" ] && [ -x "$(pg_bindir)/initdb" ] ;;
        *) dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed" ;;
    esac
}

# the Debian packages to have: the Makefile's SYSTEM_PACKAGES, given as arguments
[ $# -gt 0 ] || { echo "usage: tools/system-deps.sh PACKAGE... (make system-deps)" >&2; exit 2; }
missing=()
for package in "$@"; do
    present "$package" || missing+=("$package")
done

# `apt-get download` (training.artwork) needs the package lists, which a fresh image may lack
have_lists() { compgen -G "/var/lib/apt/lists/*_Packages*" >/dev/null; }

can_install() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }

if can_install; then
    if [ ${#missing[@]} -gt 0 ] || ! have_lists; then
        echo "system-deps: installing ${missing[*]:-(package lists only)}"
        apt-get update -q >/dev/null
    fi
    if [ ${#missing[@]} -gt 0 ]; then
        apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
    fi
    # the tests run postgres as this unprivileged user when they run as root
    if ! id kibic-pg >/dev/null 2>&1; then
        useradd --system --no-create-home --shell /usr/sbin/nologin kibic-pg
    fi
    echo "system-deps: chromium, postgresql ($("$(pg_bindir)/postgres" --version)), librsvg2-bin, fonts-dejavu present"
elif [ ${#missing[@]} -gt 0 ]; then
    echo "system-deps: missing ${missing[*]}; the tests that need them are skipped." \
        "Install them first: sudo apt-get install ${missing[*]}"
fi
