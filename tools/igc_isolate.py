"""igc_isolate.py - the kernels of an OpenCL C file one by one, for
igc_compare.py where Intel's compiler refuses the whole file because of
some of its kernels (a `double` where the device has no FP64, a block
read it does not take): the file's own macros expanded (clang-14 -E, the
OpenCL header left out so that the device compiler's own header supplies
its macros), the span of each kernel definition found by matching its
braces, and a copy of the text in which only the chosen kernels are left.
"""
import os
import re
import subprocess

KERNEL_RE = re.compile(r"(?<![\w#])(?:__kernel|kernel)\s+void\s+(\w+)\s*\(")


def preprocess(path):
    """The file with its macros expanded (its #pragma lines kept), or None
    when clang-14 fails or is missing."""
    try:
        r = subprocess.run(["clang-14", "-E", "-P", "-x", "cl", "-cl-std=CL2.0", "-cl-no-stdinc",
                            "-I" + os.path.dirname(os.path.abspath(path)), path],
                           capture_output=True, text=True, check=False)
    except OSError:
        return None
    return r.stdout if r.returncode == 0 else None


def _skip_literal(text, i):
    """The index after the string or character literal opening at i."""
    quote, i = text[i], i + 1
    while i < len(text) and text[i] != quote:
        i += 2 if text[i] == "\\" else 1
    return i + 1


def kernel_spans(text):
    """[(name, start, end)] of every kernel definition (or declaration) of
    preprocessed text: from the end of the top-level declaration before it
    (so that attributes written before `kernel` go with it) to its closing
    brace, or its `;` for a declaration."""
    spans = []
    depth = 0           # braces and parentheses
    decl_start = 0      # where the current top-level declaration begins
    kernel = None       # (name, start) of the kernel being read
    i = 0
    while i < len(text):
        c = text[i]
        if c in "\"'":
            i = _skip_literal(text, i)
            continue
        if c == "#" and (i == 0 or text[i - 1] == "\n"):      # a #pragma line
            j = text.find("\n", i)
            i = len(text) if j < 0 else j + 1
            decl_start = i
            continue
        if depth == 0 and kernel is None:
            m = KERNEL_RE.match(text, i)
            if m:
                kernel = (m.group(1), decl_start)
                i = m.end() - 1         # at its '('
                continue
        if c in "{(":
            depth += 1
        elif c in "})":
            depth -= 1
            if depth == 0 and c == "}":     # a function body or a struct ends
                if kernel:
                    spans.append((kernel[0], kernel[1], i + 1))
                    kernel = None
                decl_start = i + 1
        elif c == ";" and depth == 0:
            if kernel:
                spans.append((kernel[0], kernel[1], i + 1))
                kernel = None
            decl_start = i + 1
        i += 1
    return spans


def keep_only(text, keep):
    """text with the definitions of the kernels not in `keep` removed (each
    replaced by as many newlines as it spanned, so that the lines of the
    rest stay where they were)."""
    out, at = [], 0
    for name, start, end in kernel_spans(text):
        if name in keep:
            continue
        out += [text[at:start], "\n" * text.count("\n", start, end)]
        at = end
    return "".join(out + [text[at:]])


def kernel_at(text, line, column):
    """The kernel whose definition holds 1-based (line, column) of text, or
    None (outside every kernel: a helper function, a declaration)."""
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    if not 1 <= line <= len(starts):
        return None
    offset = starts[line - 1] + column - 1
    for name, start, end in kernel_spans(text):
        if start <= offset < end:
            return name
    return None
