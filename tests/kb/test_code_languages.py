"""The languages a project is written in besides Python, C and JavaScript (C#, PHP, Kotlin, Swift, SQL, Lua …)
and their configuration files imported as code: cut at their definitions and named by them, their passwords
stored hidden, and a file whose brackets never balance imported all the same."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tinyrag_desktop.kb import Importer, ImportReport, open_store, sql_split
from tinyrag_desktop.kb.chunking import chunk_document
from tinyrag_desktop.kb.code_files import read_code, source_language
from tinyrag_desktop.kb.code_split import split_code
from tinyrag_desktop.kb.readers import file_type
from tinyrag_desktop.kb.secret_values import UNQUOTED, hide_secrets

# name: (text, headings a passage has, the secret in it). Each a small program as people write them, with
# what its splitter could stumble on: strings and comments holding brackets, bodies without braces.
SAMPLES: dict[str, tuple[str, tuple[str, ...], str]] = {
    "Program.cs": ('''using System;

namespace Harbour
{
    /// <summary>Where the boats are moored.</summary>
    public class Program
    {
        private const string Folder = @"C:\\harbour\\";
        private const string Banner = """
            { the harbour office }
            """;
        private static string password = "Moor1ng-cs";

        [STAThread]
        public static void Main(string[] args)
        {
            Console.WriteLine($"Boats moored in {Folder}: {args.Length}");
            Console.WriteLine(Banner);
        }

        private static int CountBerths(int piers)
        {
            return piers * 12;
        }
    }
}
''', ("Program.cs > Program > Main", "Program.cs > Program > CountBerths"), "Moor1ng-cs"),
    "Repository.php": ('''<?php
namespace Harbour;

# the database { settings
$password = 'Moor1ng-php';
$query = <<<SQL
SELECT * FROM boats WHERE berth = { x
SQL;

/** Boats in the harbour. */
class BoatRepository
{
    public function find(int $id): ?Boat
    {
        return $this->db->query("SELECT * FROM boats WHERE id = {$id}");
    }

    private static function connect(): Database
    {
        return new Database('harbour', '#not-a-comment');
    }
}
''', ("Repository.php > BoatRepository > find", "Repository.php > BoatRepository > connect"), "Moor1ng-php"),
    "Berths.kt": ('''package harbour

val apiKey = "Moor1ng-kt"

data class Berth(val pier: Int, val number: Int)

fun twice(x: Int) = x * 2

class Harbourmaster(private val name: String) {
    fun greet(): String {
        return """Welcome to ${name}'s harbour { come in }"""
    }

    fun assign(boat: String): Berth {
        return Berth(twice(1), boat.length)
    }
}
''', ("Berths.kt > Berth", "Berths.kt > twice", "Berths.kt > Harbourmaster > greet"), "Moor1ng-kt"),
    "Tides.swift": ('''import Foundation

let apiToken = "Moor1ng-swift"

protocol Tide {
    func height(at hour: Int) -> Double
}

struct SpringTide: Tide {
    let range: Double
    func height(at hour: Int) -> Double {
        return range * sin(Double(hour) / 12.0 * .pi) // "{"
    }
}

func describe(_ tide: Tide) -> String {
    return "High water at \\(tide.height(at: 6)) metres"
}
''', ("Tides.swift > Tide", "Tides.swift > SpringTide > height", "Tides.swift > describe"), "Moor1ng-swift"),
    "Ledger.scala": ('''package harbour

object Ledger {
  private val password = "Moor1ng-scala"

  def fees(boats: Seq[Boat]): Double = {
    boats.map(b => b.length * 2.5).sum
  }

  def twice(x: Int): Int = x * 2
}
''', ("Ledger.scala > Ledger > fees", "Ledger.scala > Ledger > twice"), "Moor1ng-scala"),
    "main.dart": ('''import 'package:flutter/material.dart';

const apiKey = 'Moor1ng-dart';

void main() {
  runApp(const HarbourApp());
}

class HarbourApp extends StatelessWidget {
  const HarbourApp({super.key});

  @override
  Widget build(BuildContext context) {
    return Text('Boats { moored }');
  }
}
''', ("main.dart > main", "main.dart > HarbourApp > build"), "Moor1ng-dart"),
    "build.gradle": ('''plugins {
    id 'java'
}

def password = 'Moor1ng-gradle'

dependencies {
    implementation 'org.slf4j:slf4j-api:2.0.9'
    testImplementation 'junit:junit:4.13.2'
}
''', ("build.gradle > dependencies",), "Moor1ng-gradle"),
    "berths.zig": ('''const std = @import("std");

const password = "Moor1ng-zig";

pub fn main() !void {
    std.debug.print("berths {d}\\n", .{12});
}

const Berth = struct {
    pier: u32,
    pub fn init(pier: u32) Berth {
        return .{ .pier = pier };
    }
};
''', ("berths.zig > main", "berths.zig > Berth"), "Moor1ng-zig"),
    "Harbour.pm": ('''package Harbour;
use strict;

my $password = 'Moor1ng-perl';

=head1 NAME

Harbour - boats { and berths

=cut

sub new {
    my ($class, %args) = @_;
    return bless { %args }, $class;
}

sub berths {
    my ($self) = @_;
    $self->{name} =~ s/\\{//g;
    return scalar @{ $self->{berths} };
}

1;
''', ("Harbour.pm > new", "Harbour.pm > berths"), "Moor1ng-perl"),
    "fees.R": ('''# Harbour fees
password <- "Moor1ng-r"

fee <- function(length, nights) {
  length * nights * 2.5  # "}"
}

mean_stay = function(stays) {
  sum(stays) / length(stays)
}
''', ("fees.R > fee", "fees.R > mean_stay"), "Moor1ng-r"),
    "deploy.ps1": ('''<#
.SYNOPSIS
 Deploys the harbour { office
#>
$Password = "Moor1ng-ps"

function Publish-Harbour {
    param([string]$Path = "C:\\harbour\\")
    Copy-Item $Path "\\\\server\\share"
}

function Get-Berths {
    Get-Content berths.txt
}
''', ("deploy.ps1 > Publish-Harbour", "deploy.ps1 > Get-Berths"), "Moor1ng-ps"),
    "build.bat": ('''@echo off
rem Builds the harbour office.
set DB_PASSWORD=Moor1ng-bat
call :compile
goto :eof

:compile
echo compiling the harbour office
msbuild Harbour.sln
exit /b 0
''', ("build.bat > compile",), "Moor1ng-bat"),
    "tides.lua": ('''local M = {}
local password = "Moor1ng-lua"

-- The height of the tide at an hour.
function M.height(hour)
  --[[ a block
  comment with end ]]
  return math.sin(hour / 12 * math.pi)
end

local function clamp(x)
  if x < 0 then
    return 0
  end
  return x
end

return M
''', ("tides.lua > M.height", "tides.lua > clamp"), "Moor1ng-lua"),
    "tides.jl": ('''module Tides

const password = "Moor1ng-julia"

struct Tide
    range::Float64
end

"""The height of the tide."""
function height(t::Tide, hour)
    t.range * sin(hour / 12 * pi)
end

end
''', ("tides.jl > Tide", "tides.jl > height"), "Moor1ng-julia"),
    "harbour.ex": ('''defmodule Harbour do
  @moduledoc "The harbour office."
  @password "Moor1ng-elixir"

  @doc "Assigns a berth."
  def assign(boat) do
    {:ok, String.length(boat)}
  end

  defp fee(length), do: length * 2
end
''', ("harbour.ex > Harbour > assign", "harbour.ex > Harbour > fee"), "Moor1ng-elixir"),
    "harbour.erl": ('''-module(harbour).
-export([fee/2]).

settings() -> #{user => "harbour", password => "Moor1ng-erlang"}.

%% The fee for a stay.
fee(Length, Nights) ->
    Length * Nights * 2.

berths(0) -> [];
berths(N) ->
    [N | berths(N - 1)].
''', ("harbour.erl > fee", "harbour.erl > berths"), "Moor1ng-erlang"),
    "harbour.nim": ('''import strutils

let password = "Moor1ng-nim"

proc fee*(length, nights: int): int =
  result = length * nights * 2

type
  Berth = object
    pier: int
''', ("harbour.nim > fee", "harbour.nim > type"), "Moor1ng-nim"),
    "Harbour.hs": ('''module Harbour where

import Data.List

password :: String
password = "Moor1ng-haskell"

-- | The fee for a stay.
fee :: Int -> Int -> Int
fee len nights = len * nights * 2

data Berth = Berth Int
  | Mooring Int
  deriving (Show)
''', ("Harbour.hs > fee", "Harbour.hs > Berth"), "Moor1ng-haskell"),
    "harbour.ml": ('''open Printf

let password = "Moor1ng-ocaml"

(* The fee for a stay. *)
let fee length nights =
  length * nights * 2

let rec berths n =
  if n = 0 then [] else n :: berths (n - 1)
''', ("harbour.ml > fee", "harbour.ml > berths"), "Moor1ng-ocaml"),
    "Harbour.fs": ('''module Harbour

let password = "Moor1ng-fsharp"

/// The fee for a stay.
let fee length nights =
    length * nights * 2

type Berth =
    | Pier of int
    member this.Number =
        match this with
        | Pier n -> n
''', ("Harbour.fs > fee", "Harbour.fs > Berth"), "Moor1ng-fsharp"),
    "harbour.clj": ('''(ns harbour.core
  (:require [clojure.string :as str]))

(def password "Moor1ng-clojure")

;; The fee for a stay.
(defn fee [length nights]
  (* length nights 2))
''', ("harbour.clj > harbour.core", "harbour.clj > fee"), "Moor1ng-clojure"),
    "Harbour.vb": ('''Imports System

Module Harbour
    Private Const Password As String = "Moor1ng-vb"

    Sub Main()
        Console.WriteLine("The harbour office")
    End Sub

    Function Fee(length As Integer, nights As Integer) As Integer
        Return length * nights * 2
    End Function
End Module
''', ("Harbour.vb > Harbour > Main", "Harbour.vb > Harbour > Fee"), "Moor1ng-vb"),
    "schema.sql": ('''-- The boats.
CREATE TABLE boats (
  id serial PRIMARY KEY,
  name text NOT NULL DEFAULT 'unnamed; for now'
);

INSERT INTO boats (name) VALUES ('Marie; of Brest');

CREATE USER harbour WITH PASSWORD 'Moor1ng-sql';

CREATE OR REPLACE FUNCTION add_boat(n text) RETURNS void AS $$
BEGIN
  INSERT INTO boats(name) VALUES (n);
END;
$$ LANGUAGE plpgsql;
''', ("schema.sql > boats", "schema.sql > add_boat"), "Moor1ng-sql"),
    "berths.sql": ('''-- Oracle: a block run by its "/" line, a CASE statement closed by END CASE
CREATE OR REPLACE PROCEDURE moor(len NUMBER) IS
BEGIN
  CASE WHEN len > 20 THEN fee := 40; ELSE fee := 20; END CASE;
END;
/
CREATE TABLE berths (id NUMBER);
CREATE USER harbour IDENTIFIED BY "Moor1ng-oracle";
CREATE TABLE tides (at DATE);
''', ("berths.sql > moor", "berths.sql > berths", "berths.sql > tides"), "Moor1ng-oracle"),
    "dump.sql": (r'''--
-- PostgreSQL database dump
--
SET standard_conforming_strings = on;

CREATE TABLE public.boats (
    id integer NOT NULL,
    name text
);

COPY public.boats (id, name) FROM stdin;
1	Marie's; of Brest
2	C:\harbour\
\.

CREATE TABLE public.berths (
    id integer NOT NULL
);

INSERT INTO public.paths VALUES (1, 'C:\');
CREATE INDEX berths_id ON public.berths USING btree (id);
INSERT INTO public.notes VALUES (E'quay\', berth 4', 'it''s moored');
CREATE TABLE public.moorings (id integer);
CREATE USER harbour WITH PASSWORD 'Moor1ng-pgdump';
''', ("dump.sql > public.boats", "dump.sql > public.berths", "dump.sql > berths_id", "dump.sql > public.moorings"),
                 "Moor1ng-pgdump"),
    "tide.m": ('''function h = tide(hour)
% TIDE the height of the tide at an hour.
password = 'Moor1ng-matlab';
h = sin(hour / 12 * pi);
end

function f = fee(len, nights)
f = len * nights * 2;
end
''', ("tide.m > tide", "tide.m > fee"), "Moor1ng-matlab"),
    "Harbour.m": ('''#import "Harbour.h"

static NSString *password = @"Moor1ng-objc";

@implementation Harbour

- (NSInteger)feeForLength:(NSInteger)length nights:(NSInteger)nights {
    return length * nights * 2;
}

@end
''', ("Harbour.m > feeForLength",), "Moor1ng-objc"),
    "app.properties": ('''# The harbour office
db.url=jdbc:postgresql://db/harbour
db.password=Moor1ng-props
mail.secret Moor1ng-props2
''', ("app.properties",), "Moor1ng-props"),
    "redis.conf": ('''# Redis for the harbour office
port 6379
requirepass Moor1ng-redis
''', ("redis.conf",), "Moor1ng-redis"),
    "nginx.conf": ('''user www-data;

http {
    server {
        listen 80;
        location /berths {
            proxy_pass http://harbour;
            proxy_set_header Authorization "Bearer Moor1ngNginx42";
        }
    }
}
''', ("nginx.conf > http > server",), "Moor1ngNginx42"),
    "web.config": ('''<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <appSettings>
    <add key="SmtpPassword" value="Moor1ng-dotnet" />
    <add key="Theme" value="harbour-blue" />
  </appSettings>
</configuration>
''', ("web.config",), "Moor1ng-dotnet"),
}

# The same files cut short: a bracket, a string, a comment or a block left open.
_LEFT_OPEN = {".php": "\n$s = <<<EOT\n{ {", ".sql": "\nCREATE TABLE x (a text DEFAULT '",
              ".lua": "\n--[[ never closed\nfunction f()\n"}
BROKEN = {name: text[: len(text) // 2] + _LEFT_OPEN.get(Path(name).suffix, "\n{ /* \"\n")
          for name, (text, _, _) in SAMPLES.items()}


def _stored(db: Path) -> dict[str, list[tuple[str, str]]]:
    """Each source's passages, by its path under the project: (heading, text)."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT s.location, c.heading, c.text FROM chunks c JOIN sources s ON s.id = c.source_id"
                            " ORDER BY s.id, c.ordinal").fetchall()
    stored: dict[str, list[tuple[str, str]]] = {}
    for location, heading, text in rows:
        stored.setdefault(Path(location).parent.name + "/" + Path(location).name, []).append((heading, text))
    return stored


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], dict[str, list[tuple[str, str]]],
                                                                 ImportReport]:
    root = tmp_path_factory.mktemp("harbour")
    for folder, files in (("whole", {name: text for name, (text, _, _) in SAMPLES.items()}), ("broken", BROKEN)):
        (root / folder).mkdir()
        for name, text in files.items():
            (root / folder / name).write_text(text, encoding="utf-8")
    data = root / "data"
    with open_store(data) as kb:
        report = Importer(kb, chunk_size=120).run([str(root / "whole"), str(root / "broken")])
        types = {Path(s.location).parent.name + "/" + Path(s.location).name: s.type for s in kb.sources()}
    return types, _stored(data / "knowledge.db"), report


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_each_language_imports_as_code_cut_and_named_at_its_definitions(name: str, imported) -> None:
    types, stored, report = imported
    text, headings, secret = SAMPLES[name]
    assert not report.failed
    assert types[f"whole/{name}"] == ("config" if Path(name).suffix in (".properties", ".conf", ".config") else "code")
    passages = stored[f"whole/{name}"]
    assert set(headings) <= {heading for heading, _ in passages}, [h for h, _ in passages]
    if secret:  # stored hidden, the line it is on kept
        joined = "\n".join(t for _, t in passages)
        assert secret not in joined and "***" in joined


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_file_whose_brackets_never_balance_is_imported_whole(name: str, imported) -> None:
    types, stored, _ = imported
    assert types[f"broken/{name}"] in ("code", "config")
    kept = "\n".join(t for _, t in stored[f"broken/{name}"])
    for line in BROKEN[name].splitlines():
        if line.strip() and not any(s and s in line for _, _, s in SAMPLES.values()):
            assert line.strip() in kept, line


def test_every_new_extension_is_read_and_a_dot_m_file_is_objective_c_or_matlab() -> None:
    for name in ("a.php", "a.cs", "a.kt", "a.kts", "a.swift", "a.scala", "a.dart", "a.lua", "a.pl", "a.pm", "a.r",
                 "a.R", "a.sql", "a.ps1", "a.psm1", "a.bat", "a.CMD", "a.vb", "a.fs", "a.ex", "a.exs", "a.erl", "a.hs",
                 "a.ml", "a.clj", "a.groovy", "build.gradle", "a.zig", "a.nim", "a.jl", "a.m"):
        assert file_type(Path(name)) == "code", name
    for name in ("app.properties", "nginx.conf", "web.config", "App.config"):
        assert file_type(Path(name)) == "config", name
    assert file_type(Path("pom.xml")) == "xml"  # other XML stays a document
    assert source_language(b"#import <Foundation/Foundation.h>\n", "a.m") == "objc"
    assert source_language(b"@implementation Harbour\n@end\n", "a.m") == "objc"
    assert source_language(b"function y = f(x)\n% #import is no MATLAB\ny = x;\n", "a.m") == "matlab"


def test_sql_is_cut_at_statements_outside_strings_bodies_and_blocks() -> None:
    text = ("CREATE TABLE boats (name text DEFAULT 'a;b');\n"
            "CREATE TRIGGER stamp AFTER INSERT ON boats BEGIN\n  UPDATE boats SET n = CASE WHEN 1 THEN 2 END;\n"
            "  SELECT 1;\nEND;\n"
            "DELIMITER //\nCREATE PROCEDURE tally() BEGIN SELECT 1; END//\nDELIMITER ;\n"
            "CREATE PROCEDURE dbo.Berths AS\nBEGIN\n  SELECT 1;\nEND\nGO\n"
            "BEGIN ISOLATION LEVEL SERIALIZABLE;\nCREATE TABLE #moored (id int);  # MySQL's comment; SQL Server's\n"
            "CREATE VIEW moored AS SELECT * FROM #moored;\nSELECT 'done';\n")
    sections = split_code(text, "sql")
    assert "".join(s.text for s in sections) == text
    named = {s.path[0]: s.text for s in sections if s.path}
    assert named["stamp"].endswith("  SELECT 1;\nEND;\n")
    assert named["tally"].startswith("CREATE PROCEDURE tally()")
    assert named["dbo.Berths"].endswith("END\nGO\n")
    assert named["moored"] == "CREATE VIEW moored AS SELECT * FROM #moored;\n"
    assert list(named) == ["boats", "stamp", "tally", "dbo.Berths", "moored"]


class _CountingSearches:
    """A pattern whose searches are counted."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern, self.searches = pattern, 0

    def search(self, *args):
        self.searches += 1
        return self.pattern.search(*args)


def test_a_mysql_dump_of_procedures_is_cut_looking_for_its_delimiter_lines_once(monkeypatch) -> None:
    counting = _CountingSearches(sql_split._DELIMITER_LINE)
    monkeypatch.setattr(sql_split, "_DELIMITER_LINE", counting)
    text = ("DELIMITER //\n" + "".join(f"CREATE PROCEDURE p{i}() BEGIN SELECT {i}; END//\n" for i in range(500))
            + "DELIMITER ;\nCREATE TABLE berths (id int);\n")
    sections = split_code(text, "sql")
    assert "".join(s.text for s in sections) == text
    assert [s.path[0] for s in sections if s.path] == [f"p{i}" for i in range(500)] + ["berths"]
    assert counting.searches <= 3  # not one search to the end of the file for each procedure


NEW_LANGUAGES = ("cs", "kotlin", "swift", "scala", "dart", "groovy", "zig", "php", "objc", "perl", "r", "ps", "lua",
                 "julia", "elixir", "erlang", "nim", "haskell", "ml", "clojure", "vb", "matlab", "batch", "sql", "conf",
                 "properties", "xml")
# What these languages' cuts look at, to go wrong on: their strings, comments, blocks and statement ends.
_PIECES = st.sampled_from(['"""', "'''", '@"', '"', "'", "`", "<<<EOT", "EOT;", "<#", "#>", "--[[", "]]", "=pod",
                           "=cut", "__END__", "$$", "$tag$", ";", "BEGIN", "END", "end", "CASE", "DELIMITER //", "//",
                           "COPY t FROM stdin;", "\\.", "E'", "\\'", "END CASE", "/",
                           "GO", "CREATE TABLE t (", "create function f() as", ")", "{", "}", "(", "[", "/*", "*/",
                           "#", "%", ":label", "::", "sub f {", "function f()", "fun f() = 1", "def f(x) do",
                           "class C {", "  public void M() {", "let f x =", "(defn f [x]", "Sub Main()", "End Sub",
                           "proc f*() =", "f x = 1", "server {", "[section]", "", "  ", "\t", "x"])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(st.lists(_PIECES, max_size=40).map("\n".join), st.lists(_PIECES, max_size=40).map(" ".join),
                      st.text(max_size=200)),
       language=st.sampled_from(NEW_LANGUAGES))
def test_no_line_is_lost_or_repeated_in_the_new_languages(text: str, language: str) -> None:
    sections = split_code(text, language)
    assert "".join(s.text for s in sections) == text
    assert all(s.text for s in sections)


@pytest.mark.parametrize("language, text, hidden", [
    ("php", "$password = 'Moor1ng-1';\n$this->password = \"Moor1ng-2\";\n", 2),
    ("perl", "my $db_pass = 'Moor1ng-1';\n", 1),
    ("r", 'password <- "Moor1ng-1"\n', 1),
    ("cs", 'var password = @"Moor1ng-1";\nvar apiKey = $"Moor1ng-2";\n', 2),
    ("properties", "db.password=Moor1ng-1\ndb.password Moor1ng-2\ndb.password: Moor1ng-3\n", 3),
    ("conf", "password Moor1ng-1\nrequirepass Moor1ng-2   # redis\nmasterauth \"Moor1ng-3\"\n", 3),
    ("sql", "CREATE USER app WITH PASSWORD 'Moor1ng-1';\nALTER USER 'a'@'%' IDENTIFIED BY 'Moor1ng-2';\n", 2),
    ("xml", '<add key="SmtpPassword" value="Moor1ng-1" />\n', 1),
    ("vb", 'Private Const Password As String = "Moor1ng-1"\n', 1),
    ("clojure", '(def api-key "Moor1ng-1")\n', 1),
    ("elixir", '@password "Moor1ng-1"\n', 1),
    ("batch", "set DB_PASSWORD=Moor1ng-1\n", 1),
    ("ps", '$pw = ConvertTo-SecureString "Moor1ng-1" -AsPlainText -Force\n', 1),
    # prose and references about passwords stay as written
    ("conf", "# the password must be set\nssl_password_file /etc/keys/pass.txt;\npassword\n"
             "proxy_pass http://harbour:8080;\nproxy_pass /run/harbour.sock;\n", 0),
    ("properties", "password.reset.subject=Your new password\n", 0),
    ("sql", "SELECT password FROM users;\n-- the password is hashed\nUPDATE users SET password = crypt($1);\n", 0),
    ("vb", "Dim password As String = txtPassword.Text\n", 0),
])
def test_each_language_s_own_ways_of_giving_a_password_are_hidden(language: str, text: str, hidden: int) -> None:
    masked, count = hide_secrets(text, unquoted=language in UNQUOTED, language=language)
    assert count == hidden and "Moor1ng" not in masked, masked
    assert hidden or masked == text


def test_a_batch_file_s_quoted_set_keeps_its_closing_quote() -> None:
    masked, count = hide_secrets('set "DB_PASSWORD=Moor1ng-1"\nset "API_TOKEN=Moor1ng-2" \n', unquoted=True,
                                 language="batch")
    assert (masked, count) == ('set "DB_PASSWORD=***"\nset "API_TOKEN=***" \n', 2)


_NAMES = {"cs": "a.cs", "kotlin": "a.kt", "swift": "a.swift", "scala": "a.scala", "dart": "a.dart",
          "groovy": "a.groovy", "zig": "a.zig", "php": "a.php", "objc": "a.mm", "perl": "a.pl", "r": "a.r",
          "ps": "a.ps1", "lua": "a.lua", "julia": "a.jl", "elixir": "a.ex", "erlang": "a.erl", "nim": "a.nim",
          "haskell": "a.hs", "ml": "a.ml", "clojure": "a.clj", "vb": "a.vb", "matlab": "a.m", "batch": "a.bat",
          "sql": "a.sql", "conf": "a.conf", "properties": "a.properties", "xml": "web.config"}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.lists(_PIECES, max_size=60).map("\n".join), language=st.sampled_from(NEW_LANGUAGES),
       size=st.sampled_from([100, 300, 1200]))
def test_passages_of_the_new_languages_hold_each_line_of_the_file_once(text: str, language: str, size: int) -> None:
    doc = read_code(text.encode(), _NAMES[language])
    lines = sorted(line.rstrip() for c in chunk_document(doc, size) for line in c.text.split("\n") if line.strip())
    assert lines == sorted(line.rstrip() for line in text.split("\n") if line.strip())
