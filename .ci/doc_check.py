#!/usr/bin/env python3
"""Checks of the documentation (docs/ and README.md), run by .ci/docs.

    doc_check.py links   every relative link and image resolves: the file exists and, for
                         a page, the #anchor is one of its headings (mdBook's ids); a page
                         of the book links only inside docs/
    doc_check.py run [PAGE...]
                         runs the marked blocks of every page (docs/developer/documentation.md):
                         ```sh blocks with bash in one scratch folder (links to instances/,
                         examples/, python/), the built program first on the PATH; ```python
                         blocks with $DOCS_PYTHON when it is set; checks that every ```sh ci
                         command is in .ci/run and that every ```sh test=PATH block's test
                         reads its page

Exit status 1 on the first failure of `run`, after all findings of `links`.
"""

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
BLOCK_SECONDS = 600  # one block's budget; commands in pages use small data and budgets
FENCE = re.compile(r"^```(.*)$")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def pages():
    """README.md and every page of the book, in a stable order."""
    return [ROOT / "README.md"] + sorted(DOCS.rglob("*.md"))


def prose_and_blocks(path):
    """(prose lines outside fences, [(info, first line number, code)])."""
    prose, blocks, block, info, start = [], [], None, "", 0
    for n, line in enumerate(path.read_text().splitlines(), 1):
        m = FENCE.match(line.strip()) if line.startswith("```") else None
        if m and block is None:
            block, info, start = [], m.group(1).strip(), n
        elif m and block is not None:
            blocks.append((info, start, "\n".join(block) + "\n"))
            block = None
        elif block is not None:
            block.append(line)
        elif not line.startswith("    "):  # indented code is not prose either
            prose.append(line)
    return prose, blocks


def anchor(heading):
    """mdBook's id of a heading: lowercase alphanumerics, '-' and '_', spaces to '-'."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "")
    out = []
    for ch in text.strip():
        if ch.isalnum() or ch in "_-":
            out.append(ch.lower())
        elif ch.isspace():
            out.append("-")
    return "".join(out)


def anchors(path):
    prose, _ = prose_and_blocks(path)
    return {anchor(l.lstrip("#")) for l in prose if re.match(r"^#{1,6} ", l)}


def check_links():
    bad = []
    for page in pages():
        prose, _ = prose_and_blocks(page)
        for line in prose:
            for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
                if re.match(r"^[a-z]+:", target):
                    continue
                file, _, frag = target.partition("#")
                dest = (page.parent / file).resolve() if file else page
                where = f"{page.relative_to(ROOT)}: link {target}"
                if page != ROOT / "README.md" and DOCS not in dest.parents and dest != DOCS:
                    bad.append(f"{where} leaves docs/ (the site would not have it)")
                elif not dest.exists():
                    bad.append(f"{where}: {dest.relative_to(ROOT)} does not exist")
                elif frag and dest.suffix == ".md" and frag not in anchors(dest):
                    bad.append(f"{where}: no heading with id '{frag}'")
    for b in bad:
        print(b, file=sys.stderr)
    return 1 if bad else 0


def scratch_folder():
    d = Path(tempfile.mkdtemp(prefix="microagg-docs-"))
    for name in ["instances", "examples", "python"]:
        (d / name).symlink_to(ROOT / name)
    return d


def run_block(cmd, cwd, env, label):
    print(f"--- {label}", flush=True)
    started = time.monotonic()
    try:
        done = subprocess.run(cmd, cwd=cwd, env=env, timeout=BLOCK_SECONDS)
    except subprocess.TimeoutExpired:
        print(f"{label}: still running after {BLOCK_SECONDS} s", file=sys.stderr)
        return False
    print(f"    {time.monotonic() - started:.1f} s, status {done.returncode}", flush=True)
    if done.returncode != 0:
        print(f"{label}: exit status {done.returncode}", file=sys.stderr)
    return done.returncode == 0


def check_marked(info, code, page, label):
    """The blocks that others run: `sh ci` in .ci/run, `sh test=PATH` by tests/PATH.rs."""
    if info == "sh ci":
        ci = (ROOT / ".ci" / "run").read_text()
        commands = [c.strip() for l in code.splitlines() for c in l.split("&&") if c.strip()]
        missing = [c for c in commands if c not in ci]
        for c in missing:
            print(f"{label}: '{c}' is not in .ci/run", file=sys.stderr)
        return not missing
    test = ROOT / "tests" / f"{info.split('=', 1)[1]}.rs"
    rel = str(page.relative_to(ROOT))
    if not test.exists() or rel not in test.read_text():
        print(f"{label}: {test.relative_to(ROOT)} does not read {rel}", file=sys.stderr)
        return False
    return True


def run_blocks(only):
    """Run the blocks of every page (of the pages named in `only`, when given)."""
    scratch = scratch_folder()
    env = dict(os.environ)
    env["PATH"] = f"{ROOT / 'target' / 'release'}:{env['PATH']}"
    env.setdefault("CARGO_TARGET_DIR", str(ROOT / "target"))
    python = os.environ.get("DOCS_PYTHON")
    counts = {"sh": 0, "python": 0, "marked": 0}
    for page in pages():
        if only and str(page.relative_to(ROOT)) not in only:
            continue
        for info, line, code in prose_and_blocks(page)[1]:
            label = f"{page.relative_to(ROOT)}:{line} ({info})"
            if info == "sh":
                ok = run_block(["bash", "-euo", "pipefail", "-c", code], scratch, env, label)
                counts["sh"] += 1
            elif info == "python" and python:
                ok = run_block([python, "-c", code], scratch, env, label)
                counts["python"] += 1
            elif info == "sh ci" or info.startswith("sh test="):
                ok = check_marked(info, code, page, label)
                counts["marked"] += 1
            else:
                continue
            if not ok:
                return 1
    print(f"doc commands: {counts['sh']} shell blocks and {counts['python']} Python blocks ran, "
          f"{counts['marked']} marked blocks found where they are run")
    return 0


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else ""
    if what == "links":
        sys.exit(check_links())
    if what == "run":
        sys.exit(run_blocks(sys.argv[2:]))
    sys.exit(__doc__)
