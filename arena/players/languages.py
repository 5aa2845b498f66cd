"""The languages a bot may be written in: one table, data only (issue 41).

For each language, `LANGUAGES` says which program finds its toolchain, where installers
put that program besides the PATH (rustup under the home folder, SDKMAN, /usr/local/go,
/opt), the environment its build needs, its default build and run commands, what its build
leaves in the folder that is not the bot, and the one Debian command that installs it.

A bot.toml that says `language = "rust"` and nothing else builds and runs with the
defaults; its own `build` and `command` still win. A bot that names no language is known
by its build's program or its command's (`cargo` is Rust). Its toolchain is found on this
machine (toolchains.py) and shown to the sandbox read-only: that toolchain's folder only,
never a whole home folder.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class Language:
    """One language: how its toolchain is found, built with, run with and installed."""

    key: str
    """Its name in a bot.toml (`language = "rust"`)."""
    name: str
    """Its name for people (`Rust`)."""
    program: str
    """The program whose folder is the toolchain's (`cargo`)."""
    version: tuple[str, ...]
    """The argv that prints its version (run with the toolchain's folder first on PATH)."""
    command: tuple[str, ...]
    """The default run command, in the bot's folder."""
    debian: str
    """The Debian package(s) that install it: `apt-get install <debian>`."""
    build: tuple[str, ...] | None = None
    """The default build command (None: nothing to build)."""
    leftovers: tuple[str, ...] = ()
    """What its build leaves in the folder that is not the bot (folders, by relative path):
    left out of a submission and of the bot's hash."""
    env: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """Variables its build and its bot need; `{folder}` is the bot's folder, `{toolchain}`
    the toolchain's folder."""
    places: tuple[str, ...] = ()
    """Where installers put `program` besides the PATH (`~` is the arena user's home;
    `*` matches, the newest name first)."""
    needs: tuple[str, ...] = ()
    """Other languages whose toolchain it uses too (Kotlin runs on Java's)."""
    programs: tuple[str, ...] = ()
    """Other programs that mean this language when a bot.toml names no language."""
    aliases: tuple[str, ...] = ()
    """Other names a bot.toml may give it (`c++`, `c#`, `js`)."""
    starter: str = ""
    """The starter kit's folder in bots/ (`starter-rust`)."""

    @property
    def install(self) -> str:
        """The one command that installs it on Debian."""
        return f"apt-get install {self.debian}"


def _env(**values: str) -> Mapping[str, str]:
    return MappingProxyType(values)


_JDKS = (
    "~/.sdkman/candidates/java/current/bin/java",
    "/opt/*jdk*/bin/java",
    "/opt/java/*/bin/java",
)

# fmt: off
LANGUAGES: tuple[Language, ...] = (
    Language(
        "c", "C", "cc", ("cc", "--version"), ("./bot",), "gcc",
        build=("cc", "-O2", "-o", "bot", "bot.c"), programs=("gcc", "clang"),
        starter="starter-c",
    ),
    Language(
        "cpp", "C++", "c++", ("c++", "--version"), ("./bot",), "g++",
        build=("c++", "-O2", "-std=c++17", "-o", "bot", "bot.cpp"), programs=("g++", "clang++"),
        aliases=("c++",), starter="starter-cpp",
    ),
    Language(
        "rust", "Rust", "cargo", ("rustc", "--version"), ("./target/release/bot",), "cargo",
        build=("cargo", "build", "--release", "--offline"), leftovers=("target",),
        # Cargo's own cache (registry, git) inside target/, written by the build; no network.
        env=_env(CARGO_HOME="{folder}/target/cargo-home", CARGO_NET_OFFLINE="true"),
        places=("~/.cargo/bin/cargo", "/usr/local/cargo/bin/cargo", "/opt/rust/bin/cargo"),
        programs=("rustc",), starter="starter-rust",
    ),
    Language(
        "go", "Go", "go", ("go", "version"), ("./bot",), "golang-go",
        build=("go", "build", "-o", "bot", "."), leftovers=(".cache",),
        env=_env(
            GOCACHE="{folder}/.cache/go-build", GOPATH="{folder}/.cache/go",
            GOFLAGS="-mod=mod", GOPROXY="off", GOTOOLCHAIN="local", GOTELEMETRY="off",
        ),
        places=("/usr/local/go/bin/go", "~/go/bin/go", "~/sdk/go*/bin/go", "/opt/go/bin/go"),
        starter="starter-go",
    ),
    Language(
        "java", "Java", "javac", ("javac", "-version"), ("java", "-cp", "bin", "Bot"),
        "default-jdk-headless",
        build=("javac", "-d", "bin", "Bot.java"), leftovers=("bin",),
        env=_env(JAVA_HOME="{toolchain}"), places=tuple(j + "c" for j in _JDKS),
        programs=("java",), starter="starter-java",
    ),
    Language(
        "kotlin", "Kotlin", "kotlinc", ("kotlinc", "-version"), ("java", "-jar", "bot.jar"),
        "kotlin",
        build=("kotlinc", "bot.kt", "-include-runtime", "-d", "bot.jar"), leftovers=("bot.jar",),
        places=("~/.sdkman/candidates/kotlin/current/bin/kotlinc", "/opt/kotlinc/bin/kotlinc"),
        needs=("java",), aliases=("kt",), starter="starter-kotlin",
    ),
    Language(
        "csharp", "C#", "mcs", ("mcs", "--version"), ("mono", "bot.exe"), "mono-mcs",
        build=("mcs", "-optimize", "-out:bot.exe", "bot.cs"), leftovers=("bin", "obj"),
        programs=("mono", "csc"), aliases=("c#", "cs"), starter="starter-csharp",
    ),
    Language(
        "javascript", "JavaScript", "node", ("node", "--version"), ("node", "bot.js"), "nodejs",
        leftovers=("node_modules/.cache",),
        places=("~/.nvm/current/bin/node", "~/.volta/bin/node", "/opt/node*/bin/node"),
        aliases=("js", "node"), starter="starter-js",
    ),
    Language(
        "typescript", "TypeScript", "tsc", ("tsc", "--version"), ("node", "build/bot.js"),
        "node-typescript",
        build=("tsc", "--strict", "--target", "es2020", "--outDir", "build", "bot.ts"),
        leftovers=("build", "node_modules/.cache"), needs=("javascript",),
        aliases=("ts",), starter="starter-typescript",
    ),
    Language(
        "python", "Python", "python3", ("python3", "--version"), ("python3", "bot.py"),
        "python3", leftovers=("__pycache__",), programs=("python",), aliases=("py",),
        starter="starter-python",
    ),
    Language(
        "ruby", "Ruby", "ruby", ("ruby", "--version"), ("ruby", "bot.rb"), "ruby",
        aliases=("rb",), starter="starter-ruby",
    ),
    Language(
        "php", "PHP", "php", ("php", "--version"), ("php", "bot.php"), "php-cli",
        starter="starter-php",
    ),
    Language(
        "lua", "Lua", "lua", ("lua", "-v"), ("lua", "bot.lua"), "lua5.4",
        programs=("lua5.4", "lua5.3", "luajit"), starter="starter-lua",
    ),
    Language(
        "ocaml", "OCaml", "ocamlopt", ("ocamlopt", "-version"), ("./bot",), "ocaml-nox",
        build=("ocamlopt", "-o", "bot", "bot.ml"), leftovers=("bot.cmi", "bot.cmx", "bot.o"),
        programs=("ocaml", "ocamlfind"), places=("~/.opam/default/bin/ocamlopt",),
    ),
    Language(
        "haskell", "Haskell", "ghc", ("ghc", "--version"), ("./bot",), "ghc",
        build=("ghc", "-O", "-outputdir", "build", "-o", "bot", "bot.hs"), leftovers=("build",),
        places=("~/.ghcup/bin/ghc",), aliases=("hs",),
    ),
)
# fmt: on
"""Every language the arena knows, in the order `arena languages` lists them."""

_BY_NAME: dict[str, Language] = {
    name: language for language in LANGUAGES for name in (language.key, *language.aliases)
}
_BY_PROGRAM: dict[str, Language] = {
    program: language
    for language in reversed(LANGUAGES)  # the first language naming a program wins
    for program in (language.program, *language.programs)
}


def language_named(name: str) -> Language | None:
    """The language a bot.toml names (`rust`, `Rust`, `c++`), or None when unknown."""
    return _BY_NAME.get(name.strip().lower())


def language_of_program(program: str) -> Language | None:
    """The language a program means (`cargo` is Rust), by its name, or None."""
    return _BY_PROGRAM.get(program.rsplit("/", 1)[-1])


def known_names() -> str:
    """The known languages, for a sentence (`c, cpp, rust, ...`)."""
    return ", ".join(language.key for language in LANGUAGES)
