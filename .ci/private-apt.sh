# Sourced by the fetch-* scripts: apt-get and apt-cache on a package state of their own, so that
# fetching needs no root and leaves the system's apt state alone.
# private_apt NAME STATUS DEB-LINE...: checks for apt-get and dpkg-deb, makes $work under $dir
# (removed on exit) with the given sources, sets A to the options every apt call takes (STATUS is the
# dpkg status file apt resolves against: /dev/null for none) and reads the package lists. On failure
# it says what failed, naming the script and the archive, and exits.
private_apt() {
  local name=$1 status=$2
  shift 2
  command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null \
    || { echo "$name: needs Debian's apt-get and dpkg-deb to fetch from Debian's archive" >&2; exit 1; }
  work=$(mktemp -d "$dir/.apt.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/lists/partial" "$work/cache/archives/partial"
  printf '%s\n' "$@" >"$work/sources.list"
  A=(-o Dir::Etc::SourceList="$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
     -o Dir::State::Lists="$work/lists" -o Dir::Cache="$work/cache" -o Dir::State::status="$status"
     -o APT::Sandbox::User="$(id -un)" -o Debug::NoLocking=1)
  apt-get "${A[@]}" update -qq \
    || { echo "$name: could not read the package lists of: $(paste -s -d ';' "$work/sources.list")" >&2; exit 1; }
}
