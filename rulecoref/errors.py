"""Numbered messages, one table for the whole project.

Every user-facing problem has a code (RC1xx rules, RC2xx i2b2 input, RC3xx resources, RC4xx UMLS
database, RC5xx command line, RC6xx models, RC7xx evaluation) so that tests assert on codes, not on wording, and users
can search for a code. A message names the file and line where it can, and says what to do next.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# fmt: off
MESSAGES: dict[str, str] = {
    # rule files
    "RC101": "cannot parse YAML: {detail}",
    "RC102": "unknown kind {kind!r}; known: {known}",
    "RC103": "unknown key {key!r} in {where}; allowed: {allowed}",
    "RC104": "{where}: expected {expected}, got {got}",
    "RC105": "word list {path!r} not found (looked in {looked})",
    "RC106": "missing required key {key!r} in {where}",
    "RC107": "duplicate pass name {name!r} (first used on line {first})",
    "RC108": "unknown concept type {type!r} in {where}; declared types: {known}",
    "RC109": "{where}: {value!r} is not one of {allowed}",
    "RC110": "cannot include {path!r}: {detail}",
    "RC111": "bad example {example!r}: {detail}",
    "RC112": "unknown decoder {kind!r}; known: {known}",
    "RC113": "rule file {path!r} not found",
    "RC114": "example failed: pass {name!r} {detail}",
    # -- hostile or broken rule files (RC115-RC129) --
    "RC115": "rule file is larger than {limit} bytes",
    "RC116": "the file has more than {limit} YAML nodes once its aliases are expanded",
    "RC117": "lists and mappings nest deeper than {limit} levels",
    "RC118": "alias *{name} refers to a node that contains it (a recursive alias)",
    "RC119": "rule file is not UTF-8 text: {detail}",
    "RC120": "{path!r} is outside the folders rule files may read (it is {real}; allowed: {allowed})",
    "RC121": "word list is not text: {detail} (named on {rule})",
    "RC122": "word list is too large: {detail} (named on {rule})",
    "RC123": "{where}: {value} is not a finite number",
    "RC125": "word list {path!r} holds a phrase that is too long: {detail} (named on {rule})",
    "RC126": "word list {path!r} is one too many: {detail} (named on {rule})",
    "RC127": "rule file {path!r} is {kind}, not a file",
    "RC124": "cannot include {path!r}: includes nest deeper than {limit} files",
    # -- rule vocabulary: attributes, predicates, pass order (RC130-RC149) --
    "RC130": "unknown attribute {name!r} in {where}",
    "RC131": "unknown predicate {name!r} in {where}; known: {known}",
    "RC132": "--model was given but {path!r} names no decoder",
    "RC133": "kind {kind!r} reads what a {needs} pass finds, and none runs before it",
    # i2b2 input
    "RC201": "malformed concept line: {detail}",
    "RC202": "offset {offset} outside the text: {detail}",
    "RC203": "concept text {given!r} does not match its tokens {found!r}",
    "RC204": "no text file for concepts {path!r} (expected {expected})",
    "RC205": "empty file",
    "RC206": "cannot decode bytes as {encoding}: {detail}",
    "RC207": "malformed chain line: {detail}",
    "RC208": "unknown concept type {type!r}; declared types: {known}",
    "RC209": "chain mention {mention} is not a concept of this document",
    "RC210": "no documents found in {path!r}",
    "RC211": "span ends before it starts: {detail}",
    "RC212": "duplicate concept span {span} (first on line {first}); the later one is ignored",
    "RC213": "cannot read file: {detail}",
    "RC214": "mention {mention} appears in more than one chain (first on line {first})",
    "RC215": "concept {span} ({text!r}) starts or ends inside a token of tokenised text",
    # -- input files and folders (RC216-RC229) --
    "RC216": "no concept file for text {path!r} (expected {expected})",
    "RC217": "document name {name!r} is used by two inputs: {first} and {second}",
    "RC218": "file list {path!r} cannot be read: {detail}",
    "RC219": "input file {path!r} is larger than {limit} bytes; rulecoref reads a document whole",
    "RC220": "input {path!r} is not a regular file ({kind})",
    # -- input formats: JSONL, brat standoff, type maps (RC230-RC249) --
    "RC230": "not a JSON object: {detail}",
    "RC231": "{where}: expected {expected}, got {got}",
    "RC232": "unknown key(s) {keys} in {where} are ignored; known: {known}",
    "RC233": "duplicate document id {doc!r} (first on line {first}); this one is skipped",
    "RC234": "chain {chain}: {detail}",
    "RC235": "concept {index} text {given!r} differs from the text at {start}-{end}, {found!r}",
    "RC236": "malformed brat annotation line: {detail}",
    "RC237": "discontinuous span {spans} of {id} is read as one span {start}-{end}",
    "RC238": "{what} {id!r} refers to {ref!r}, which is not a text-bound annotation of this file",
    "RC239": "no {missing} for {path!r}",
    "RC240": "cannot read type map: {detail}",
    "RC241": "unknown key {key!r} in {where}; allowed: {allowed}",
    "RC242": "{where}: {detail}",
    "RC243": "type {type!r} is not in the type map {path!r} (unmapped: error)",
    "RC244": "concept type {type!r} after mapping is not a declared type; declared types: {known}",
    # -- bounded JSON and YAML inputs, brat ids (RC245-RC259) --
    "RC245": "{where} holds a lone surrogate ({char}) at character {pos}: that is not Unicode text",
    "RC246": "annotation id {id!r} is used twice (first on line {first})",
    "RC247": "JSON line is over a limit: {detail}",
    "RC249": "type map is over a limit: {detail}",
    # -- faithful I/O, formats found from the input, rule sets by name (RC250-RC269) --
    "RC250": "concept id {id!r} at position {index} repeats the id of concept {first}",
    "RC251": "the inputs are of different formats: {found}",
    # -- the mention finder (RC270-RC279) --
    "RC270": "find_mentions {value!r} is not one of {allowed}",
    # -- dependency parses (RC280-RC289) --
    "RC280": "spaCy pipeline {model!r} ({where}) cannot be loaded: {detail}",
    "RC281": "spaCy pipeline {model!r} ({where}) has no dependency parser; its components: {components}",
    # resources
    "RC301": "WordNet not found at {path}",
    "RC302": "cannot read word list {path!r}: {detail}",
    # -- WordNet and main-linker resources (RC303-RC309) --
    "RC303": "WordNet at {path} cannot be read: {detail}",
    "RC304": "{feature} needs the optional package(s) {modules}, which the base install leaves out",
    # -- web provider (RC310-RC319) --
    "RC310": "web provider settings: {detail}",
    "RC311": "web provider request for {word!r} failed: {detail}",
    "RC312": "web provider returned a malformed body for {word!r}: {detail}",
    "RC313": "web provider cache {path!r} is not usable: {detail}",
    "RC314": "web provider stopped after {count} failures in a row; the remaining words count as unknown",
    "RC315": "{detail}",
    # UMLS database
    "RC401": "UMLS database {url} is not usable: {detail}",
    "RC402": "{path} does not look like MRCONSO.RRF: line {line} has {got} fields, expected 18 (19 with the trailing '|')",
    "RC403": "UMLS load failed: {detail}",
    # -- UMLS (RC404-RC499) --
    "RC404": "malformed row ({detail}); skipped",
    "RC405": "{path} does not look like MRSTY.RRF: line {line} has {got} fields, expected 6 (7 with the trailing '|')",
    "RC406": "more than {limit} malformed rows ({count} so far); the load stopped and the database was not changed",
    "RC407": "{path}: none of its {lines} rows passed the filters ({filters}); the database was not changed",
    "RC408": "UMLS database {url} has no word-order-insensitive index (match: sorted)",
    "RC409": "UMLS database {url} has no semantic types (the pass filters on semantic_types)",
    # -- UMLS load: broken input (RC410-RC419) --
    "RC410": "{path} is truncated or corrupt ({detail}); the load stopped and the database was not changed",
    "RC411": "{path} is empty: nothing to load; the database was not changed",
    "RC412": "{path}: a line longer than {limit} characters; the load stopped and the database was not changed",
    # -- UMLS: network sources (RC420-RC429) --
    "RC420": "UMLS database {url} is a server, named by the rule file: a rule file alone never makes rulecoref open a network connection",
    "RC421": "UMLS database {url} is a server: this command never opens a network connection",
    "RC422": "--db {url} is a database in memory: what umls load puts there is gone when the command ends",
    # command line
    "RC501": "output directory {path!r} already holds {count} file(s) of an earlier run (.txt.chains and the like)",
    "RC503": "{count} of {total} document(s) failed",
    # -- output folder, locks, options (RC505-RC519) --
    "RC505": "output folder {path!r} is an input folder or inside one ({input}); inputs are never written to",
    "RC506": "output folder {path!r} is in use by another rulecoref run (pid {pid} on {host}, started {started}: {command})",
    "RC507": "output folder {path!r} holds a stale lock: the run that took it is gone (pid {pid}, started {started}: {command})",
    "RC508": "output folder {path!r} cannot be used: {detail}",
    "RC509": "output folder {path!r} cannot be written: {detail}",
    "RC510": "cannot write {path!r}: {detail}",
    "RC511": "unknown text encoding {encoding!r}",
    "RC512": "{path!r} exists and no rulecoref run wrote it ({detail}); it is kept",
    "RC513": "output {path!r} already exists",
    # -- view / convert / formats on the command line (RC520-RC529) --
    "RC520": "cannot tell the format of {path!r}: {detail}",
    "RC521": "{what} {path!r} not found",
    "RC522": "output {path!r} would overwrite the input {input!r}",
    "RC523": "no system output for {doc!r} in {path!r}: the page shows no system chains for it",
    "RC524": "provenance file {path!r} cannot be read: {detail}",
    "RC525": "system chains of {doc!r} do not fit its concepts: {detail}",
    "RC526": "{path!r} already holds {count} {what} of an earlier run",
    "RC527": "--resume needs the documents listed before the job: {format} rows that Spark reads itself have no names until it runs",
    # -- spaCy component and Spark runner (RC530-RC549) --
    "RC530": "{what} has the columns {got}; rulecoref needs 'id' with 'text' (and 'concepts'), or 'id' with 'txt_path' and 'con_path'",
    "RC531": "{where}: {detail}",
    "RC532": "document id {id!r} cannot name an output file: {detail}",
    "RC533": "{count} rows have the document name {id!r} (their ids, as file names)",
    "RC534": "cannot start Spark: {detail}",
    "RC535": "cannot read {path!r} as {format}: {detail}",
    "RC536": "cannot tell what {path!r} holds: {detail}",
    "RC537": "spaCy component {name!r}: {detail}",
    "RC538": "the Spark job failed: {detail}",
    # -- failures inside a run (RC550-RC569) --
    "RC550": "internal error while resolving this document: {detail}",
    "RC551": "the worker process resolving this document died before it finished",
    "RC552": "no input: give a {what}, files, or --file-list",
    "RC553": "{option}: {detail}",
    "RC554": "no mention {spec!r} in {doc!r}",
    "RC555": "pick one document with --doc (found: {names})",
    "RC556": "the rule file's decoder is {kind!r}, not belltree",
    # -- explain's mentions and documents (RC540-RC549) --
    "RC540": "mention {spec!r}: {nth!r} after '#' is no occurrence number",
    "RC541": "explain takes one or two mentions, got {count}: {specs}",
    "RC542": "no document {name!r} in {data} (its documents: {names})",
    "RC543": "mention {spec!r}: {doc!r} has {count} mention(s) reading {text!r}",
    "RC557": "no readable documents in {inputs}",
    "RC558": "output {path!r} {detail}",
    "RC559": "the run was interrupted ({signal}) before this document was resolved",
    "RC560": "out of memory while {doing}",
    # -- ablate, search and induce (RC570-RC589) --
    "RC570": "{path}: no gold chains file for {doc!r}; the record is left out of learning",
    "RC571": "no documents with gold chains in {inputs}",
    "RC572": "the rule file {path!r} builds chains with the {kind!r} decoder; {command} measures union-find chains",
    "RC573": "{count} document(s) are too few to hold some back (at least {need} are needed)",
    "RC575": "document {doc!r} is left out: {detail}",
    "RC576": "the learned rule file {path!r} does not pass its own check: {detail}",
    "RC577": "{option}: {detail}",
    "RC578": "rule file {path!r} cannot be rewritten: {detail}",
    "RC579": "predicate {name!r} is left out of the search: it failed on these documents ({detail})",
    "RC580": "filter made_by names {name!r}, which is no pass before it",
    # models
    "RC601": "model file {path!r}: {detail}",
    # -- Bell tree (RC602-RC699) --
    "RC602": "model file {path!r} has format version {got!r}; this rulecoref reads version {expected}",
    "RC603": "model file {path!r} not found",
    "RC604": "model {path!r} was trained with rule passes ({passes}) that this rule file does not run",
    "RC605": "cannot train: {detail}",
    "RC606": "model file {path!r} is over a limit: {detail}",
    "RC607": "model file {path!r}: {where}: expected {expected}, got {got}",
    # evaluation
    # -- evaluation (RC701-RC799) --
    "RC701": "system mention {mention} is not a gold concept of {doc!r}, nor the words of its text there",
    "RC702": "system file {path!r} has no gold counterpart (no {expected})",
    "RC703": "no {side} chains file for {doc!r}: every concept of it is scored as a singleton",
    "RC704": "gold chain mention {mention} is not a concept of {doc!r}",
    "RC705": "no gold documents found in {path!r}",
    "RC706": "--mode i2b2 needs the same mentions in key and response: {detail}",
    "RC707": "malformed CoNLL line: {detail}",
    "RC708": "mention of entity {entity} {detail}",
    "RC709": "duplicate document id {doc!r} (first on line {first})",
    "RC710": "{count} repeated mention(s) in the response of {doc!r} were dropped (the first one is kept)",
    "RC711": "unknown scoring mode {mode!r}; known: {known}",
    "RC712": "{what} {path!r} not found",
    "RC713": "mentions {a} and {b} of one entity cross; CoNLL cannot express that, so {b} may be read back wrong",
    "RC714": "CoNLL mention {mention} of {doc!r} is not a concept in {path!r}",
    "RC715": "no text for {doc!r}: converting to CoNLL needs {expected}",
    "RC716": "document {doc!r} of the response is not in the key; it is ignored",
    "RC717": "CoNLL document {doc!r} has {got} tokens but the reference text {path!r} has {expected}",
    # -- evaluation: inconsistent inputs (RC718-RC729) --
    "RC718": "{side} chain mention {mention} reads {given!r}, but the concept at those offsets reads {expected!r}",
    "RC719": "a second concept file for document {doc!r} (the first is {first})",
}

HINTS: dict[str, str] = {
    "RC102": "kinds are snake_case and match a module in rulecoref/passes/.",
    "RC132": "use a rule file with a decoder: rules/belltree.yaml or rules/hybrid.yaml.",
    "RC133": "put a pass of that kind earlier in the rule file (rules/people.yaml starts with people_roles).",
    "RC103": "check the spelling; every key a kind accepts is listed in docs/rules.md.",
    "RC105": "paths are relative to the rule file, its parent folder, or the bundled resources/.",
    "RC108": "declare the type under 'types:' at the top of the rule file.",
    "RC203": "the concept file may be from another version of the text; pass --strict to make this an error.",
    "RC204": "the i2b2 layout is DIR/docs/NAME.txt next to DIR/concepts/NAME.txt.con.",
    "RC206": "i2b2 files are UTF-8; convert the file or pass --encoding.",
    "RC215": "tokenised text separates tokens by whitespace; give the span of whole tokens, or the text untokenised.",
    "RC216": "every NAME.txt needs NAME.txt.con beside it (flat folder) or in DIR/concepts/ (i2b2 layout).",
    "RC217": "outputs are named by the document name (before the first '.'); rename one, or give the inputs in separate runs.",
    "RC301": ("install Debian's WordNet (apt-get install wordnet-base), or point "
              "RULECOREF_WORDNET / --wordnet at a WordNet 3.0 dict folder."),
    "RC401": "load it first: rulecoref umls load MRCONSO.RRF --db URL",
    "RC420": ("set the URL in $RULECOREF_UMLS_DB (it is yours, not the rule file's), or pass --allow-network "
              "if you trust the rule file to connect there (docs/security.md)."),
    "RC421": ("check and web --dry-run read local files only: give a SQLite copy (RULECOREF_UMLS_DB=FILE) to "
              "check the UMLS pass's examples (docs/security.md)."),
    "RC422": "give a file (--db umls.sqlite) or a server URL; an in-memory database suits only tests.",
    "RC501": "pass --overwrite to replace them, or choose an empty directory.",
    "RC505": "write the outputs to a folder of their own, e.g. beside DATA, not among its docs/, concepts/ or chains/.",
    "RC506": "two runs into one folder would mix or lose outputs: wait for that run to end, or choose another --out.",
    "RC507": "if no run uses the folder any more, clear the lock: rm {lock}",
    "RC508": "--out names a folder: choose a path that is not a file and not under one.",
    "RC509": "choose a folder you can write to.",
    "RC511": "give a Python codec name, e.g. utf-8, latin-1, cp1252.",
    "RC550": "this is a bug in rulecoref or a rule kind: please report it with the document's .con line count and the rule file.",
    "RC551": "it may have run out of memory; run again with fewer --jobs.",
    "RC554": "a mention is 'L:T', 'L:T L:T' or its text ('text#2' for the second occurrence).",
    "RC556": "use rules/belltree.yaml or rules/hybrid.yaml, or a rule file whose decoder kind is belltree.",
    "RC540": "'text#N' names the Nth occurrence of the text, counting from 1 ('mrsa#2' for the second).",
    "RC541": "quote a mention of several words ('chest pain'); to see every link of one mention, give it alone.",
    "RC542": "--doc takes a document's name, its file name before the first '.' (clinical-ex1 for clinical-ex1.txt).",
    "RC543": "'text#N' counts from 1 up to the number of mentions that read the text.",
    # -- hints: add yours below, keyed by your codes --
    "RC570": "learning needs NAME.txt.chains beside the concepts (an i2b2 release's chains/ folder).",
    "RC572": "give --rules/--base a rule file without a decoder: section (the Bell-tree decoder is trained, not induced).",
    "RC573": "give more annotated documents, or --holdout 0 to choose rules on the training documents alone.",
    "RC576": "this is a bug in rulecoref's rule induction: please report it with the command line.",
    "RC579": "this is a bug in the predicate: please report it with the documents' concept files.",
    "RC578": "--search edits the top-level passes of a file it can read line by line; keep each pass a YAML mapping of its own.",
    "RC530": "see docs/scale.md for the row schema: {{id, text, tokenized, concepts: [{{start, end, type}}]}}.",
    "RC531": ("a record row is {{id, txt_path, con_path}} (and kind, line, offset): files every executor can read "
              "(rulecoref.spark.records_frame lists them; kind is an input format, default i2b2)."),
    "RC532": "a record row's id names its file ID.txt.chains: no '/', backslash or spaces at its ends.",
    "RC533": "every id names one output file; make the ids unique.",
    "RC534": "Spark needs Java: install Debian's default-jre-headless (apt-get install default-jre-headless) or set JAVA_HOME.",
    "RC536": "name the format with --input-format (spark-resolve --help lists them).",
    "RC537": "see docs/spacy.md for the component's settings.",
    "RC402": "give the MRCONSO.RRF of a UMLS release (META/MRCONSO.RRF), unzipped or as .gz.",
    "RC405": "--mrsty takes META/MRSTY.RRF of the same release.",
    "RC406": "check the file is a complete, uncorrupted MRCONSO.RRF, or raise --max-malformed.",
    "RC407": "check --lang / --sab / --exclude-sab against the file (languages are codes such as ENG, SPA).",
    "RC408": "reload with --sorted-index: rulecoref umls load MRCONSO.RRF --db URL --sorted-index --force",
    "RC409": "reload with semantic types: rulecoref umls load MRCONSO.RRF --db URL --mrsty MRSTY.RRF --force",
    "RC410": "download or unpack the file again (gzip -t FILE.gz tests a .gz).",
    "RC411": "give the MRCONSO.RRF of a UMLS release (META/MRCONSO.RRF), unzipped or as .gz.",
    "RC412": "RRF lines are short (a row of |-separated fields): check the file is MRCONSO.RRF / MRSTY.RRF.",
    "RC310": "see docs/web-provider.md for the keys of 'web:' (enabled, url, timeout, retries, ...).",
    "RC311": "the word counts as unknown (not staff) and the batch goes on; check the url or turn web.enabled off.",
    "RC313": "set web.cache to a writable SQLite file path.",
    "RC602": "retrain it with this version: rulecoref train GOLD_DIR --model PATH",
    "RC603": "train one with rulecoref train GOLD_DIR --model PATH, or pass --model PATH to rulecoref resolve.",
    "RC604": "a hybrid model needs the rule file it was trained with (--rules at training time), e.g. rules/hybrid.yaml.",
    "RC304": "install the extra: pip install 'rulecoref[{extra}]' (scripts/setup.sh installs every extra).",
    "RC303": ("the folder must hold WordNet 3.0 dict files (index.noun, data.noun, ...); reinstall "
              "wordnet-base or point RULECOREF_WORDNET / --wordnet at another copy."),
    "RC701": "system chains may only use the gold concepts and, when the gold folder has docs/, mentions of its text (twinless ones, docs/evaluation.md): check the system was run on this gold folder.",
    "RC702": "system files are matched to gold records by the name before the first '.'.",
    "RC705": "the gold folder needs concepts/*.txt.con and chains/*.txt.chains (or pass --concepts DIR).",
    "RC706": "score CoNLL files with system mentions in --mode conll.",
    "RC713": "split one of the two mentions into another entity, or keep the i2b2 files.",
    "RC718": "mentions are scored by their offsets; check the chains were made from this version of the concept file.",
    "RC719": "documents are named by what comes before the first '.'; keep one concept file per document.",
    "RC115": "a rule file is a short list of passes; the limits are in docs/security.md.",
    "RC116": "a rule file is a short list of passes, with few aliases; the limits are in docs/security.md.",
    "RC117": "a rule file needs a few levels of nesting; the limits are in docs/security.md.",
    "RC118": "an alias may only name an anchor that it is not inside.",
    "RC125": "phrase search tries every length of entry at every word; the limits are in docs/security.md.",
    "RC126": "a rule set's word lists are small text files; the limits are in docs/security.md.",
    "RC127": "give the path of a YAML rule file (the bundled ones are in rules/: i2b2.yaml, odie.yaml, ...).",
    "RC124": "a rule set is a few files deep (rules/hybrid.yaml includes 2 levels); the limits are in docs/security.md.",
    "RC119": "save the file as UTF-8 (e.g. iconv -f latin1 -t utf-8 OLD > NEW).",
    "RC120": ("rule files may read their own folder tree and the bundled resources/ and rules/; to allow "
              "another folder pass --allow-path DIR or set RULECOREF_ALLOW_PATH (docs/security.md)."),
    "RC121": "word lists are plain UTF-8 text, one entry per line: check the path names a word list.",
    "RC122": "word lists are plain UTF-8 text, one entry per line: check the path names a word list.",
    "RC230": "JSONL input is one JSON object per line: {{\"id\": ..., \"text\": ..., \"concepts\": [...]}} (docs/formats.md).",
    "RC231": "see docs/formats.md for the fields of a JSONL document.",
    "RC233": "give every document its own id; output files are named after it.",
    "RC235": "the span is used as given; check the offsets count characters of \"text\" (end exclusive).",
    "RC236": "brat lines are T<n>\\tTYPE START END\\tTEXT, R<n>\\tTYPE Arg1:T<n> Arg2:T<m>, or *\\tTYPE T<n> T<m> ...",
    "RC237": "i2b2 concepts are contiguous; the covering span is used.",
    "RC239": "a document of a format with several files needs them side by side (brat: NAME.txt beside NAME.ann).",
    "RC241": "a type map has 'types:' (input type -> rule type), optional 'unmapped:' and 'coreference:' (docs/formats.md).",
    "RC243": "add the type to 'types:' (map it to null to drop its concepts), or set 'unmapped: keep'.",
    "RC244": "map the type to a declared one with --type-map, or pass --types auto.",
    "RC520": "name it with --input-format / --from (i2b2, conll, jsonl, brat).",
    "RC522": "choose another output folder; inputs are never modified.",
    "RC526": "pass --overwrite to replace them, or choose an empty folder.",
    "RC527": "resume from local files (i2b2, brat or JSONL folders and files), or run the batch again with --overwrite.",
    "RC123": "NaN and infinities (.nan, .inf) are not settings; give a finite number in the range docs/rules.md lists.",
    "RC218": "a file list is UTF-8 text, one input path per line ('#' starts a comment); the limits are in docs/security.md.",
    "RC219": "the limits are in docs/security.md; split the document, or check the path names a note.",
    "RC220": "give a regular file or a folder (not a device, pipe or socket).",
    "RC245": "JSON escapes \\ud800-\\udfff must come in pairs; fix the program that wrote the file.",
    "RC246": "every annotation of a .ann file needs its own id (T1, T2, ...).",
    "RC247": "the limits are in docs/security.md; a JSONL line is one document.",
    "RC249": "a type map is a short mapping; the limits are in docs/security.md.",
    "RC251": "give inputs of one format per run, or name it with --input-format.",
    "RC250": "chains name their mentions by position and by id; give every concept its own id to join them back.",
    "RC270": "auto finds pronouns only in documents without pronoun concepts (NER output), on always, off never (docs/rules.md, 'Finding mentions').",
    "RC510": ("check the folder can be written and has space (a full disk, a read-only file system); every "
              "file is written whole or not at all, so the files written before are complete."),
    "RC280": ("install a spaCy pipeline with a parser (python -m spacy download en_core_web_sm, or pip install its "
              "package) and name it by package name or folder; docs/parser.md."),
    "RC281": "name a pipeline with a 'parser' component, e.g. en_core_web_sm; docs/parser.md.",
    "RC512": "rulecoref never replaces or deletes a file it did not write: move it away, or choose another output.",
    "RC513": "pass --overwrite to replace it, or choose another name.",
    "RC538": ("check the executors' Python has rulecoref installed (spark-resolve starts them with its own "
              "interpreter unless PYSPARK_PYTHON or spark.pyspark.python names another; docs/scale.md)."),
    "RC560": ("give rulecoref more memory, or smaller inputs: fewer --jobs, smaller word lists or documents "
              "(the limits are in docs/security.md)."),
    "RC559": "run the batch again; the documents written before the interrupt are complete.",
    "RC606": "a model is the JSON that rulecoref train writes; the limits are in docs/security.md.",
    "RC607": "a model is the JSON that rulecoref train writes: retrain it, or check the path names a model.",
}
# fmt: on


class _Keep(dict):
    """Format fields where a missing one shows as ``{name}`` instead of crashing."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _listed_fields() -> frozenset[str]:
    """The fields a template lists after a colon ("allowed: {allowed}", "(found: {names})"): an
    empty one reads "none", never "allowed:  Hint: ..."."""
    return frozenset(m for text in MESSAGES.values() for m in re.findall(r":\s*\{(\w+)(?:![rs])?\}", text))


LISTED = _listed_fields()


def format_message(code: str, **fields: object) -> str:
    """Fill the template for ``code``; a missing field shows as ``{name}`` instead of crashing, and
    an empty list field (``LISTED``) as "none"."""
    for key in LISTED.intersection(fields):
        value = fields[key]
        if (isinstance(value, str) and not value.strip()) or (isinstance(value, (list, tuple, set, frozenset)) and not value):
            fields[key] = "none"
    return MESSAGES[code].format_map(_Keep(fields))


def with_hint(message: str, hint: str | None) -> str:
    """``message``, then "Hint: ..." after a full stop: a message that ends without one gets it,
    so the hint never runs on from the message ("...earlier run Hint: pass --overwrite")."""
    if not hint:
        return message
    text = message.rstrip()
    return f"{text}{'' if text.endswith(('.', '!', '?')) else '.'} Hint: {hint}"


@dataclass(frozen=True)
class Diagnostic:
    """One reported problem: where it is, its code and its message."""

    code: str
    message: str
    file: str | None = None
    line: int | None = None
    hint: str | None = None
    severity: str = "error"  # "error" or "warning"

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = f"{self.file}:{self.line}: " if self.line else f"{self.file}: "
        return with_hint(f"{where}[{self.code}] {self.message}", self.hint)

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "severity": self.severity,
            "file": self.file,
            "line": self.line,
            "message": self.message,
            "hint": self.hint,
        }


def diagnostic(
    code: str,
    *,
    file: str | None = None,
    line: int | None = None,
    hint: str | None = None,
    severity: str = "error",
    **fields: object,
) -> Diagnostic:
    return Diagnostic(
        code=code,
        message=format_message(code, **fields),
        file=file,
        line=line,
        hint=hint if hint is not None else (HINTS[code].format_map(_Keep(fields)) if code in HINTS else None),
        severity=severity,
    )


class RulecorefError(Exception):
    """Base error: carries one or more diagnostics so a whole file's problems are reported at once."""

    def __init__(self, diagnostics: Diagnostic | list[Diagnostic]):
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))

    @property
    def code(self) -> str:
        return self.diagnostics[0].code

    @property
    def codes(self) -> list[str]:
        return [d.code for d in self.diagnostics]

    @classmethod
    def make(cls, code: str, **kwargs: object) -> RulecorefError:
        return cls(diagnostic(code, **kwargs))  # type: ignore[arg-type]


class RuleFileError(RulecorefError):
    """A rule file is invalid (RC1xx)."""


class InputError(RulecorefError):
    """An i2b2 input file is invalid (RC2xx)."""


class ResourceError(RulecorefError):
    """A word list, WordNet or another resource is missing or unreadable (RC3xx)."""


class UmlsError(RulecorefError):
    """The UMLS database or an MRCONSO file is unusable (RC4xx)."""


class CliError(RulecorefError):
    """A command-line usage problem (RC5xx)."""


class OutputError(CliError):
    """An output cannot be written (RC510), would replace an input (RC522) or a file that rulecoref
    did not write (RC512), or is in the way (RC501, RC513, RC526, RC558)."""


class EvaluationError(RulecorefError):
    """Gold or system data cannot be scored (RC7xx)."""


class ModelError(RulecorefError):
    """A model file is invalid or of another version (RC6xx)."""
