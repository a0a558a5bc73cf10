#!/usr/bin/env python3
"""Checks exported models with the reference ONNX checker (PyPI `onnx`).

Usage: scripts/check_onnx.py MODEL.onnx [MORE.onnx ...]
Runs onnx.checker.check_model(model, full_check=True) (structure, opset, and full
shape inference) and prints the graph's inputs and outputs. Exit status 1 on failure.
"""
import sys

import onnx


def main(paths):
    failed = 0
    for path in paths:
        try:
            model = onnx.load(path)
            onnx.checker.check_model(model, full_check=True)
        except Exception as e:  # report every file, then fail
            print(f"{path}: FAILED: {e}", file=sys.stderr)
            failed += 1
            continue
        def shape(v):
            return [d.dim_param or d.dim_value for d in v.type.tensor_type.shape.dim]
        ins = ", ".join(f"{i.name}{shape(i)}" for i in model.graph.input)
        outs = ", ".join(f"{o.name}{shape(o)}" for o in model.graph.output)
        opset = ",".join(str(o.version) for o in model.opset_import)
        print(f"{path}: ok (opset {opset}; {ins} -> {outs})")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
