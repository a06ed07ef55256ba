"""A stored game in its referee's own viewer: the viewer's files read from the game's jar (or class-path
folders) when they are asked for, and a page of ours that plays the stored frames in it.

A referee built on CodinGame's SDK ships its viewer in its jar, under `view/`: the SDK's core
(`core/Drawer.js`, an ES module), the game's modules and `config.js`, its assets, and the graphics
library the Drawer needs (PIXI 4 to 6: no SDK release ships PIXI 7). Where the class path has several
jars and folders, their `view/` folders make one, as the SDK's runner copies them: a folder's file
wins over a jar's, a later jar's over an earlier one's. Two files the runner writes itself are made
here: `assets.js` (the images, sprite sheets and bitmap fonts of `assets/`, and where they are), and
`demo.js` (no intro: the one a game ships shows avatars from CodinGame's servers).

Nothing is copied into the project or fetched from outside: the files are read from the user's jar,
at serve time, under a URL named by the hash of what they are read from (`/viewer/KEY/PATH`), so that
a browser may keep them as long as the jar is unchanged. The page (viewer_page/) is ours: the
Drawer driven as CodinGame's player drives it, with play, pause, step, seek, speed, a link to a
frame, and beside it each player's output, input and stderr and the game's summary at that frame.

Functions answer a request's path, so that any server can use them (arena/web/serve.py does);
`export` writes a game, its page and its viewer into a folder any static server serves.
"""

from __future__ import annotations

import dataclasses
import hashlib
import html
import json
import os
import posixpath
import re
import threading
import zipfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from referee.platform.files import (
    refuse_overwriting,
    refuse_replacing_data,
    usable_folder,
    write_atomic,
)

from arena.errors import UsageError
from arena.games.base import DamagedGame
from arena.play import replays
from arena.play.store import Store, quoted, stored_game
from arena.project import arena_output, mark_output_folder, page_mark, refuse_replacing_unmarked
from arena.web import record_page

VIEW = "view/"
DRAWER = "core/Drawer.js"
# A file's type by its extension. `.js` files are ES modules: a script type. A bitmap font (`.fnt`) is
# XML (the PIXI of every SDK release reads one typed application/octet-stream too, as a static
# server may type it: tried with PIXI 4.4.3, 5.3.8 and 6.5.3 in Chromium).
TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".svg": "image/svg+xml",
    ".webp": "image/webp",
    ".fnt": "application/xml",
    ".xml": "application/xml",
    ".atlas": "text/plain; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
    ".mp3": "audio/mpeg",
    ".ogg": "audio/ogg",
    ".wav": "audio/wav",
}
OCTETS = "application/octet-stream"
MADE = ("assets.js", "demo.js")  # written here, not read from the jar
PIXI_WANTED = re.compile(r"PIXI\s*:\s*['\"](PIXI\d+)['\"]")
DRAWER_VERSION = re.compile(r"static get VERSION\s*\(\)\s*\{\s*return\s+(\d+)")
PLAYER_BUNDLE = "lib/player.js"  # SDK 2.x-3.x: PIXI 4 only inside CodinGame's player
PAGE_FILES = resources.files("arena.web") / "viewer_page"


def content_type(path: str) -> str:
    return TYPES.get(posixpath.splitext(path)[1].lower(), OCTETS)


class ViewerFiles:
    """The `view/` files of a class path (jars and folders), read on demand; `key` names their
    content (a hash of the jars' bytes and the folders' files)."""

    def __init__(self, paths: list[str]):
        self.paths = paths
        self._lock = threading.Lock()  # one ZipFile's reads share one file handle
        self._zips: list[zipfile.ZipFile] = []
        self.files: dict[str, tuple[zipfile.ZipFile | None, str]] = {}  # view path -> (jar or None, member or file)
        digest = hashlib.sha256()
        jars = [p for p in paths if os.path.isfile(p)]
        folders = [p for p in paths if os.path.isdir(p)]
        for jar in jars:  # a later jar's file over an earlier one's
            archive = zipfile.ZipFile(jar)
            self._zips.append(archive)
            for info in archive.infolist():
                if info.filename.startswith(VIEW) and not info.is_dir():
                    self.files[info.filename[len(VIEW) :]] = (archive, info.filename)
            digest.update(_file_hash(jar).encode())
        for folder in folders:  # a folder's over a jar's
            root = Path(folder) / VIEW
            for file in sorted(root.rglob("*")) if root.is_dir() else ():
                if file.is_file():
                    name = file.relative_to(root).as_posix()
                    self.files[name] = (None, str(file))
                    digest.update(f"{name}\0{_file_hash(file)}\0".encode())
        self.key = digest.hexdigest()[:20]
        self._made: dict[str, bytes] = {}

    def close(self) -> None:
        for archive in self._zips:
            archive.close()

    def read(self, name: str) -> bytes | None:
        """The file `view/NAME` (None where there is none)."""
        found = self.files.get(name)
        if found is None:
            return None
        archive, member = found
        if archive is None:
            try:
                return Path(member).read_bytes()
            except OSError:
                return None
        with self._lock:
            return archive.read(member)

    def info(self) -> dict:
        """What the page needs to know of the viewer: whether there is one (a Drawer), the PIXI its
        Drawer wants and the script of the jar that gives it, whether it has an error log."""
        drawer = (self.read(DRAWER) or b"").decode("utf-8", "replace")
        wanted = PIXI_WANTED.search(drawer)
        pixi = wanted.group(1) if wanted else None
        script = None
        if pixi and f"lib/{pixi.lower()}.js" in self.files:
            script = f"lib/{pixi.lower()}.js"  # SDK 1.x (pixi4.js), 4.x (pixi4, 5, 6)
        elif pixi and PLAYER_BUNDLE in self.files:
            script = PLAYER_BUNDLE
        version = DRAWER_VERSION.search(drawer)
        return {
            "drawer": bool(drawer),
            "pixi": pixi,
            "pixiScript": script,
            "drawerVersion": int(version.group(1)) if version else None,
            "errorLog": "core/ErrorLog.js" in self.files,
        }

    def usable(self) -> bool:
        """Whether the page can play a game in it: a Drawer, and the PIXI it wants."""
        info = self.info()
        return info["drawer"] and (info["pixi"] is None or info["pixiScript"] is not None)

    def file(self, path: str, base: str) -> tuple[bytes, str] | None:
        """(content, type) of the viewer's file at `path`, as served under `base` (the URL of the
        viewer's folder, as the page sees it); None for none, or for what is not the viewer's."""
        path = _servable(path)
        if path is None:
            return None
        if path == "assets.js":
            return self.assets_js(base), TYPES[".js"]
        if path == "demo.js":
            return b"export const demo = null\n", TYPES[".js"]
        body = self.read(path)
        return None if body is None else (body, content_type(path))

    def names(self) -> list[str]:
        """Every file of the viewer that `file` serves."""
        return sorted({*(n for n in self.files if _servable(n) == n), *MADE})

    def assets_js(self, base: str) -> bytes:
        """`export const assets = {...}`, as the SDK's runner writes it: the images of `assets/` by
        name, its sprite sheets (*.json) and bitmap fonts (*.fnt), but the images the sheets and
        fonts load themselves; `baseUrl` the viewer's folder, which is not the page's."""
        key = base
        if key not in self._made:
            images: dict[str, str] = {}
            sprites, fonts, linked = [], [], set()
            for name in sorted(n for n in self.files if n.startswith("assets/")):
                if name.endswith(".json"):
                    try:
                        image = json.loads(self.read(name))["meta"]["image"]
                        linked.add(posixpath.normpath(posixpath.join(posixpath.dirname(name), image)))
                    except (ValueError, KeyError, TypeError):
                        pass
                    sprites.append(name)
                elif name.endswith(".fnt"):
                    text = (self.read(name) or b"").decode("utf-8", "replace")
                    for page in re.findall(r'<page[^>]*file="([^"]+)"', text):
                        linked.add(posixpath.normpath(posixpath.join(posixpath.dirname(name), page)))
                    fonts.append(name)
                else:
                    images[name[len("assets/") :]] = name
            images = {k: v for k, v in images.items() if v not in linked}
            body = {"baseUrl": base, "images": images, "sprites": sprites, "fonts": fonts}
            self._made[key] = ("export const assets = " + json.dumps(body) + "\n").encode()
        return self._made[key]


def _servable(path: str) -> str | None:
    """A path inside the viewer's folder, normalised; None for one outside it, or a Java class (a
    game's Java package `view` sits there too)."""
    path = posixpath.normpath(path).lstrip("/")
    return None if path == ".." or path.startswith("../") or path.endswith(".class") else path


def _file_hash(path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class Viewers:
    """The viewers of the games served, opened once each and again when their files change: by
    their paths for the pages, by their key for the files."""

    KEPT = 8  # viewers kept open (a page opened before its jar changed still finds its files a while)

    def __init__(self):
        self._lock = threading.Lock()
        self._by_paths: dict[tuple[str, ...], tuple[tuple, ViewerFiles | None]] = {}
        self._by_key: dict[str, ViewerFiles] = {}

    def of(self, paths: list[str]) -> ViewerFiles | None:
        """The viewer of a class path (None where it has no usable viewer, or cannot be read)."""
        if not paths:
            return None
        state = _state(paths)
        with self._lock:
            known = self._by_paths.get(tuple(paths))
            if known is not None and known[0] == state:
                return known[1]
            try:
                viewer = ViewerFiles(paths)
            except (OSError, zipfile.BadZipFile):
                viewer = None
            if viewer is not None and not viewer.usable():
                viewer.close()
                viewer = None
            self._by_paths[tuple(paths)] = (state, viewer)
            if viewer is not None:
                self._by_key[viewer.key] = viewer
                while len(self._by_key) > self.KEPT:
                    self._by_key.pop(next(iter(self._by_key))).close()
            return viewer

    def file(self, key: str, path: str) -> tuple[bytes, str] | None:
        """`/viewer/KEY/PATH`: (content, type), or None."""
        viewer = self._by_key.get(key)
        return None if viewer is None else viewer.file(path, served_base(key))


def unplayable(paths: list[str]) -> str:
    """Why the class path `paths` holds no viewer the page can play, said of its paths (for a user's
    message): a path not there, a file that is not a jar, no Drawer, or not the PIXI it wants."""
    gone = [path for path in paths if not os.path.exists(path)]
    if gone:
        return f"no such file: {', '.join(gone)}"
    for path in paths:
        if os.path.isfile(path) and not zipfile.is_zipfile(path):
            return f"{path} is not a jar (a jar is a zip archive; this file is not one)"
    where = ", ".join(paths)
    try:
        files = ViewerFiles(paths)
    except (OSError, zipfile.BadZipFile) as exc:
        return f"cannot read {where}: {exc}"
    try:
        info = files.info()
    finally:
        files.close()
    if not info["drawer"]:
        return f"{where} holds no viewer ({VIEW}{DRAWER})"
    pixi = info["pixi"]
    return f"{where}'s viewer wants {pixi}, and holds neither {VIEW}lib/{pixi.lower()}.js nor {VIEW}{PLAYER_BUNDLE}"


def served_base(key: str) -> str:
    return f"/viewer/{key}/"


def _state(paths: list[str]) -> tuple:
    """What tells that a class path's files changed: each jar's size and time, each folder's files'."""
    state = []
    for path in paths:
        try:
            if os.path.isdir(path):
                root = Path(path) / VIEW
                files = sorted(root.rglob("*")) if root.is_dir() else []
                state.append(tuple((str(f), f.stat().st_size, f.stat().st_mtime_ns) for f in files))
            else:
                stat = os.stat(path)
                state.append((stat.st_size, stat.st_mtime_ns))
        except OSError:
            state.append(None)
    return tuple(state)


# ---------------------------------------------------------------- the page


@dataclass
class Replay:
    """What the page shows of one stored game, with where it finds the rest."""

    record: dict  # the game's record (arena/play/store.py)
    game_name: str
    frames_url: str  # where its stored frames are (`replays.pack`), relative to the page or absolute
    viewer_url: str  # the viewer's folder
    viewer: dict  # `ViewerFiles.info()`
    record_url: str | None = None  # the game's record as a page
    back_url: str | None = None  # the page it was reached from
    root: str = "./"  # the folder a web server serves, relative to the page (a report's game page: "../")

    def meta(self) -> dict:
        keys = ("id", "seats", "ranks", "scores", "errors", "reason", "detail", "turns", "seed", "finished_at")
        return {
            "game": {key: self.record.get(key) for key in keys} | {"name": self.game_name},
            "frames": self.frames_url,
            "viewer": {"base": self.viewer_url, **self.viewer},
            "record": self.record_url,
            "back": self.back_url,
            "root": self.root,
        }


def page(replay: Replay) -> str:
    """The page that plays a stored game in its viewer (one file: the script is inline)."""
    record = replay.record
    title = f"game {record.get('id')}: {' vs '.join(record['seats'])} ({replay.game_name})"
    meta = json.dumps(replay.meta(), separators=(",", ":")).replace("<", "\\u003c")  # no </script> in it
    parts = {
        "__MARK__": page_mark(),
        "__TITLE__": html.escape(title),
        "__META__": meta,
        "__SCRIPT__": (PAGE_FILES / "host.js").read_text(encoding="utf-8"),
    }
    template = (PAGE_FILES / "page.html").read_text(encoding="utf-8")
    return re.sub("|".join(parts), lambda match: parts[match.group(0)], template)


def served_page(viewers: Viewers, game, record: dict, url: str, back: str | None = "/") -> str | None:
    """The page of a stored game that kept its frames, served at `url` (its frames at `url/frames`,
    its record's page at `url/record`, its viewer under `/viewer/KEY/`); None where its game (a
    `Game`) has no viewer that can play it: then its record's page is the game's page."""
    viewer = viewers.of(game.viewer_paths())
    if viewer is None:
        return None
    replay = Replay(record, game.name, f"{url}/frames", served_base(viewer.key), viewer.info(), f"{url}/record", back)
    return page(replay)


# ---------------------------------------------------------------- a folder to serve anywhere

EXPORT_VIEWER = "viewer/"
FRAMES_FILE = "frames.json.gz"


def write_viewer(viewer: ViewerFiles, folder: Path) -> int:
    """Write the viewer's files into `folder` (as the page finds them under `viewer/`); their bytes.
    `refuse_replacing_in_viewer` first."""
    if not folder.exists():  # (one that was there stays unmarked: it may hold the user's files too)
        folder.mkdir(parents=True)
        mark_output_folder(folder)
    written = 0
    for name in viewer.names():
        body = viewer.file(name, EXPORT_VIEWER)[0]
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, body)
        written += len(body)
    return written


def refuse_replacing_in_viewer(viewer: ViewerFiles, folder: Path) -> None:
    """UserError where `folder` (a replay's or a report's `viewer/`) holds a file of the user's under a
    name the viewer's files take: a user's viewer/core/Drawer.js was replaced, exit 0. The arena's
    own folder is marked as such (`write_viewer`); in one not marked (the user's, or one written
    before the mark), a file that is already the viewer's (the same bytes) is the arena's."""
    if not folder.is_dir() or arena_output(folder):
        return
    for name in viewer.names():
        body = viewer.file(name, EXPORT_VIEWER)[0]
        refuse_replacing_data(folder / name, "a file of the game's viewer", lambda data, body=body: data == body)


def are_frames(data: bytes) -> bool:
    """Whether `data` is a game's frames as stored (`replays.pack`): what a replay's folder may replace."""
    try:
        replays.unpack(data)
    except DamagedGame:
        return False
    return True


def write_game(folder: Path, page_name: str, replay: Replay, frames: bytes) -> None:
    """One game's page (`page_name`) and frames in `folder`, beside its viewer's `viewer/`."""
    write_atomic(folder / page_name, page(replay))
    write_atomic(folder / replay.frames_url, frames)


@dataclass
class Exported:
    folder: Path
    frames: int
    files: int  # the viewer's
    size: int  # the viewer's bytes
    paths: list[str]  # where the viewer was read from
    own_page: bool = False  # the game's own replay page, whole in index.html (no frames, no viewer)


def export(store: Store, game_id: int, folder: Path, viewer: str | None = None) -> Exported:
    """Game `game_id` of a run in `folder`: its page (`index.html`), its frames, its record's page and
    its viewer (`viewer/`, from `viewer` where given: a run begun without one kept its frames all
    the same), for any static server; where it kept no frames, the game's own replay page
    (Volcanoes refereed in-process: its board, move by move), which needs no server. UsageError
    where it can be shown in neither; DamagedGame for a game no page can show, before anything is
    written. Never over the run's database, nor over a file the arena did not write there (a user's
    frames.json.gz or viewer/core/Drawer.js), nor one linked from the folder."""
    record = store.game(game_id)
    if record is None:
        raise UsageError(f"{store.path} has no game {game_id}")
    frames = store.frames(game_id)
    config = store.config
    game = stored_game(config)
    own = game.replay_page(record) if frames is None else None
    count = len(replays.unpack(frames)) if frames is not None else 0
    for name in ("index.html", "record.html", FRAMES_FILE):
        refuse_overwriting(folder / name, store.path)
        if name.endswith(".html") and not arena_output(folder):
            refuse_replacing_unmarked(folder / name, "a game's page written by the arena")
    if own is not None:
        folder = _replay_folder(folder)
        write_atomic(folder / "index.html", record_page.linked(own, "record.html"))
        write_atomic(folder / "record.html", record_page.render(record, config))
        return Exported(folder, 0, 0, 0, [], own_page=True)
    if frames is None:
        policy = config.get("replays", replays.DEFAULT)
        if replays.keeps(policy, record):
            why = "its referee sent no view frames"
        else:
            why = f"the run's --replays {policy} keeps {replays.describe(policy)}"
        raise UsageError(
            f"game {game_id} of {store.path} kept no frames ({why}): arena serve {quoted(store.path)} shows its record"
        )
    if viewer is not None:
        if not hasattr(game, "viewer"):
            raise UsageError(f"--viewer: {game.name} plays in its own page, with no viewer of its referee's")
        game = dataclasses.replace(game, viewer=os.path.abspath(viewer))
    paths = game.viewer_paths()
    shown = Viewers().of(paths)
    if shown is None:
        raise UsageError(_no_viewer(game_id, paths, given=viewer is not None))
    refuse_replacing_data(folder / FRAMES_FILE, "a game's frames", are_frames)
    refuse_replacing_in_viewer(shown, folder / EXPORT_VIEWER)
    folder = _replay_folder(folder)
    size = write_viewer(shown, folder / EXPORT_VIEWER)
    replay = Replay(record, game.name, FRAMES_FILE, EXPORT_VIEWER, shown.info(), "record.html")
    write_game(folder, "index.html", replay, frames)
    write_atomic(folder / "record.html", record_page.render(record, config))
    return Exported(folder, count, len(shown.names()), size, paths)


def _replay_folder(folder: Path) -> Path:
    """The replay's `folder`, made where need be, and marked as the arena's where it is made now or
    held nothing: a folder of the user's stays theirs (a bot's build leaves out a folder marked)."""
    ours = not folder.is_dir() or not any(folder.iterdir())
    folder = usable_folder(folder, "the replay's folder")
    if ours:
        mark_output_folder(folder)
    return folder


def _no_viewer(game_id: int, paths: list[str], given: bool) -> str:
    """What to do where the viewer `paths` name cannot play game `game_id`: `given` by --viewer (the
    user's path is what to fix), or the run's own (a jar moved since the run wants --viewer)."""
    if given:
        return f"--viewer: {unplayable(paths)}"
    if not paths:
        why = "its referee's command names no jar"
    elif any(not os.path.exists(path) for path in paths):
        return (
            f"game {game_id}'s viewer is gone: {unplayable(paths)} (moved or deleted since the run): "
            "--viewer PATH says where it is now (the referee's jar, or a folder holding view/)"
        )
    else:
        why = unplayable(paths)
    return (
        f"game {game_id}'s referee has no viewer this page can play: {why} "
        "(give one with --viewer PATH: the referee's jar, or a folder holding view/)"
    )
