#!/usr/bin/env python3
"""The wire facts of a cuzk proving.proto, one a line: its name, package and syntax; the service's
methods (request, response, streaming); every enum's values and every message's fields (name,
number, type, label, the type named), in the file's order. What a generated client puts on the
wire depends on these and nothing else, so two files with the same facts talk byte for byte.

  tests/grpcapi/proto_facts.py ROOT/cuzk/v1/proving.proto > FACTS

ROOT: the folder the file's path cuzk/v1/proving.proto is below (Curio's
extern/cuzk/cuzk-proto/proto, or zkfleet's grpcapi/proto). tests/grpcapi/curio_proving.facts was
made this way from Curio's file; tests/grpcapi/proto_facts_test.cpp writes the same lines from the
descriptor compiled into zkfleet and compares. Needs grpcio-tools (its protoc).
"""
import os
import subprocess
import sys
import tempfile

from google.protobuf import descriptor_pb2

TYPES = {1: "double", 2: "float", 3: "int64", 4: "uint64", 5: "int32", 6: "fixed64",
         7: "fixed32", 8: "bool", 9: "string", 10: "group", 11: "message", 12: "bytes",
         13: "uint32", 14: "enum", 15: "sfixed32", 16: "sfixed64", 17: "sint32", 18: "sint64"}
LABELS = {1: "optional", 2: "required", 3: "repeated"}


def facts(f):
    out = ["file %s package %s syntax %s" % (f.name, f.package, f.syntax or "proto2")]
    for s in f.service:
        out.append("service %s.%s" % (f.package, s.name))
        for m in s.method:
            out.append("rpc %s %s %s client_streaming=%d server_streaming=%d" % (
                m.name, m.input_type.lstrip("."), m.output_type.lstrip("."),
                m.client_streaming, m.server_streaming))

    def enum(e, scope):
        out.append("enum %s.%s" % (scope, e.name))
        for v in e.value:
            out.append("value %s %d" % (v.name, v.number))

    def message(m, scope):
        full = "%s.%s" % (scope, m.name)
        out.append("message %s" % full)
        for fd in m.field:
            t = TYPES[fd.type]
            named = " " + fd.type_name.lstrip(".") if fd.type in (11, 14) else ""
            opt = " proto3_optional" if fd.proto3_optional else ""
            out.append("field %s %d %s %s%s%s" % (fd.name, fd.number, LABELS[fd.label], t, named, opt))
        for oneof in m.oneof_decl:
            out.append("oneof %s" % oneof.name)
        for e in m.enum_type:
            enum(e, full)
        for n in m.nested_type:
            message(n, full)

    for e in f.enum_type:
        enum(e, f.package)
    for m in f.message_type:
        message(m, f.package)
    return out


def main():
    path = os.path.abspath(sys.argv[1])
    root = os.path.dirname(os.path.dirname(os.path.dirname(path)))
    with tempfile.TemporaryDirectory() as d:
        ds = os.path.join(d, "set.pb")
        subprocess.run([sys.executable, "-m", "grpc_tools.protoc", "-I" + root,
                        "--descriptor_set_out=" + ds, path], check=True)
        fs = descriptor_pb2.FileDescriptorSet()
        fs.ParseFromString(open(ds, "rb").read())
    print("\n".join(facts(fs.file[0])))


if __name__ == "__main__":
    main()
