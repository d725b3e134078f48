"""Numbered messages, one table for the whole project.

Every user-facing problem has a code (RC1xx rules, RC2xx i2b2 input, RC3xx resources, RC4xx UMLS
database, RC5xx command line, RC6xx models, RC7xx evaluation) so that tests assert on codes, not on wording, and users
can search for a code. A message names the file and line where it can, and says what to do next.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    """One code's text: the message template and the hint that follows it ("Hint: ..."), kept in
    one entry so a new code cannot get a message without deciding on its hint."""

    message: str
    hint: str | None = None


#: Every code, sorted. The comments name the ranges; a code keeps its number once released, except the
#: few renumbered into their honest range (docs/errors.md maps them), and an old number never gets a new meaning.
# fmt: off
ERRORS: dict[str, Entry] = {
    # -- rule files (RC1xx): reading and checking (RC101-RC113) --
    "RC101": Entry("cannot parse YAML: {detail}"),
    "RC102": Entry("unknown kind {kind!r}; known: {known}",
                   hint="kinds are snake_case and match a module in rulecoref/passes/."),
    "RC103": Entry("unknown key {key!r} in {where}; allowed: {allowed}",
                   hint="check the spelling; every key a kind accepts is listed in docs/rules.md."),
    "RC104": Entry("{where}: expected {expected}, got {got}"),
    "RC105": Entry("word list {path!r} not found (looked in {looked})",
                   hint="paths are relative to the rule file, its parent folder, or the bundled resources/."),
    "RC106": Entry("missing required key {key!r} in {where}"),
    "RC107": Entry("duplicate pass name {name!r} (first used on line {first})"),
    "RC108": Entry("unknown concept type {type!r} in {where}; declared types: {known}",
                   hint="declare the type under 'types:' at the top of the rule file."),
    "RC109": Entry("{where}: {value!r} is not one of {allowed}"),
    "RC110": Entry("cannot include {path!r}: {detail}"),
    "RC111": Entry("bad example {example!r}: {detail}"),
    "RC112": Entry("unknown decoder {kind!r}; known: {known}"),
    "RC113": Entry("rule file {path!r} not found"),
    # -- hostile or broken rule files (RC115-RC127) --
    "RC115": Entry("rule file is larger than {limit} bytes",
                   hint="a rule file is a short list of passes; the limits are in docs/security.md."),
    "RC116": Entry("the file has more than {limit} YAML nodes once its aliases are expanded",
                   hint="a rule file is a short list of passes, with few aliases; the limits are in docs/security.md."),
    "RC117": Entry("lists and mappings nest deeper than {limit} levels",
                   hint="a rule file needs a few levels of nesting; the limits are in docs/security.md."),
    "RC118": Entry("alias *{name} refers to a node that contains it (a recursive alias)",
                   hint="an alias may only name an anchor that it is not inside."),
    "RC119": Entry("rule file is not UTF-8 text: {detail}",
                   hint="save the file as UTF-8 (e.g. iconv -f latin1 -t utf-8 OLD > NEW)."),
    "RC120": Entry("{path!r} is outside the folders rule files may read (it is {real}; allowed: {allowed})",
                   hint=("rule files may read their own folder tree and the bundled resources/ and rules/; to "
                         "allow another folder pass --allow-path DIR or set RULECOREF_ALLOW_PATH "
                         "(docs/security.md).")),
    "RC121": Entry("word list is not text: {detail} (named on {rule})",
                   hint="word lists are plain UTF-8 text, one entry per line: check the path names a word list."),
    "RC122": Entry("word list is too large: {detail} (named on {rule})",
                   hint="word lists are plain UTF-8 text, one entry per line: check the path names a word list."),
    "RC123": Entry("{where}: {value} is not a finite number",
                   hint=("NaN and infinities (.nan, .inf) are not settings; give a finite number in the range "
                         "docs/rules.md lists.")),
    "RC124": Entry("cannot include {path!r}: includes nest deeper than {limit} files",
                   hint=("a rule set is a few files deep (rules/hybrid.yaml includes 2 levels); the limits are in "
                         "docs/security.md.")),
    "RC125": Entry("word list {path!r} holds a phrase that is too long: {detail} (named on {rule})",
                   hint="phrase search tries every length of entry at every word; the limits are in docs/security.md."),
    "RC126": Entry("word list {path!r} is one too many: {detail} (named on {rule})",
                   hint="a rule set's word lists are small text files; the limits are in docs/security.md."),
    "RC127": Entry("rule file {path!r} is {kind}, not a file",
                   hint=("give the path of a YAML rule file (the bundled ones are in rules/: i2b2.yaml, odie.yaml, "
                         "...).")),
    # -- rule vocabulary: attributes, predicates, pass order, settings (RC130-RC135) --
    "RC130": Entry("unknown attribute {name!r} in {where}"),
    "RC131": Entry("unknown predicate {name!r} in {where}; known: {known}"),
    "RC133": Entry("kind {kind!r} reads what a {needs} pass finds, and none runs before it",
                   hint=("put a pass of that kind earlier in the rule file (rules/people.yaml starts with "
                         "people_roles).")),
    "RC134": Entry("filter made_by names {name!r}, which is no pass before it"),
    "RC135": Entry("{where}: {detail}",
                   hint=("docs/web-provider.md lists the keys of 'web:' (enabled, url, timeout, retries, ...); "
                         "docs/rules.md every other setting's.")),
    # -- input documents (RC2xx): i2b2 files (RC201-RC215) --
    "RC201": Entry("malformed concept line: {detail}"),
    "RC202": Entry("offset {offset} outside the text: {detail}"),
    "RC203": Entry("concept text {given!r} does not match its tokens {found!r}",
                   hint=("the concept file may be from another version of the text; pass --strict to make this an "
                         "error.")),
    "RC204": Entry("no text file for concepts {path!r} (expected {expected})",
                   hint="the i2b2 layout is DIR/docs/NAME.txt next to DIR/concepts/NAME.txt.con."),
    "RC205": Entry("empty file"),
    "RC206": Entry("cannot decode bytes as {encoding}: {detail}",
                   hint="i2b2 files are UTF-8; convert the file or pass --encoding."),
    "RC207": Entry("malformed chain line: {detail}"),
    "RC208": Entry("unknown concept type {type!r}; declared types: {known}"),
    "RC209": Entry("chain mention {mention} is not a concept of this document"),
    "RC210": Entry("no documents found in {path!r}"),
    "RC211": Entry("span ends before it starts: {detail}"),
    "RC212": Entry("duplicate concept span {span} (first on line {first}); the later one is ignored"),
    "RC213": Entry("cannot read file: {detail}"),
    "RC214": Entry("mention {mention} appears in more than one chain (first on line {first})"),
    "RC215": Entry("concept {span} ({text!r}) starts or ends inside a token of tokenised text",
                   hint=("tokenised text separates tokens by whitespace; give the span of whole tokens, or the "
                         "text untokenised.")),
    # -- input files and folders (RC216-RC220) --
    "RC216": Entry("no concept file for text {path!r} (expected {expected})",
                   hint="every NAME.txt needs NAME.txt.con beside it (flat folder) or in DIR/concepts/ (i2b2 layout)."),
    "RC217": Entry("document name {name!r} is used by two inputs: {first} and {second}",
                   hint=("outputs are named by the document name (before the first '.'); rename one, or give the "
                         "inputs in separate runs.")),
    "RC218": Entry("file list {path!r} cannot be read: {detail}",
                   hint=("a file list is UTF-8 text, one input path per line ('#' starts a comment); the limits "
                         "are in docs/security.md.")),
    "RC219": Entry("input file {path!r} is larger than {limit} bytes; rulecoref reads a document whole",
                   hint="the limits are in docs/security.md; split the document, or check the path names a note."),
    "RC220": Entry("input {path!r} is not a regular file ({kind})",
                   hint="give a regular file or a folder (not a device, pipe or socket)."),
    # -- input formats: JSONL, brat standoff, type maps, bounded inputs (RC230-RC249) --
    "RC230": Entry("not a JSON object: {detail}",
                   hint=('JSONL input is one JSON object per line: {{"id": ..., "text": ..., "concepts": [...]}} '
                         "(docs/formats.md).")),
    "RC231": Entry("{where}: expected {expected}, got {got}",
                   hint="see docs/formats.md for the fields of a JSONL document."),
    "RC232": Entry("unknown key(s) {keys} in {where} are ignored; known: {known}"),
    "RC233": Entry("duplicate document id {doc!r} (first on line {first}); this one is skipped",
                   hint="give every document its own id; output files are named after it."),
    "RC234": Entry("chain {chain}: {detail}"),
    "RC235": Entry("concept {index} text {given!r} differs from the text at {start}-{end}, {found!r}",
                   hint='the span is used as given; check the offsets count characters of "text" (end exclusive).'),
    "RC236": Entry("malformed brat annotation line: {detail}",
                   hint=("brat lines are T<n>\\tTYPE START END\\tTEXT, R<n>\\tTYPE Arg1:T<n> Arg2:T<m>, or *\\tTYPE "
                         "T<n> T<m> ...")),
    "RC237": Entry("discontinuous span {spans} of {id} is read as one span {start}-{end}",
                   hint="i2b2 concepts are contiguous; the covering span is used."),
    "RC238": Entry("{what} {id!r} refers to {ref!r}, which is not a text-bound annotation of this file"),
    "RC239": Entry("no {missing} for {path!r}",
                   hint=("a document of a format with several files needs them side by side (brat: NAME.txt beside "
                         "NAME.ann).")),
    "RC240": Entry("cannot read type map: {detail}"),
    "RC241": Entry("unknown key {key!r} in {where}; allowed: {allowed}",
                   hint=("a type map has 'types:' (input type -> rule type), optional 'unmapped:' and "
                         "'coreference:' (docs/formats.md).")),
    "RC242": Entry("{where}: {detail}"),
    "RC243": Entry("type {type!r} is not in the type map {path!r} (unmapped: error)",
                   hint="add the type to 'types:' (map it to null to drop its concepts), or set 'unmapped: keep'."),
    "RC244": Entry("concept type {type!r} after mapping is not a declared type; declared types: {known}",
                   hint="map the type to a declared one with --type-map, or pass --types auto."),
    "RC245": Entry("{where} holds a lone surrogate ({char}) at character {pos}: that is not Unicode text",
                   hint="JSON escapes \\ud800-\\udfff must come in pairs; fix the program that wrote the file."),
    "RC246": Entry("annotation id {id!r} is used twice (first on line {first})",
                   hint="every annotation of a .ann file needs its own id (T1, T2, ...)."),
    "RC247": Entry("JSON line is over a limit: {detail}",
                   hint="the limits are in docs/security.md; a JSONL line is one document."),
    "RC249": Entry("type map is over a limit: {detail}",
                   hint="a type map is a short mapping; the limits are in docs/security.md."),
    # -- faithful I/O, formats found from the input (RC250-RC251) --
    "RC250": Entry("concept id {id!r} at position {index} repeats the id of concept {first}",
                   hint=("chains name their mentions by position and by id; give every concept its own id to join "
                         "them back.")),
    "RC251": Entry("the inputs are of different formats: {found}",
                   hint="give inputs of one format per run, or name it with --input-format."),
    # -- resources (RC3xx): word lists, WordNet, optional packages, spaCy parsers (RC301-RC306) --
    "RC301": Entry("WordNet not found at {path}",
                   hint=("install Debian's WordNet (apt-get install wordnet-base), or point RULECOREF_WORDNET / "
                         "--wordnet at a WordNet 3.0 dict folder.")),
    "RC302": Entry("cannot read word list {path!r}: {detail}"),
    "RC303": Entry("WordNet at {path} cannot be read: {detail}",
                   hint=("the folder must hold WordNet 3.0 dict files (index.noun, data.noun, ...); reinstall "
                         "wordnet-base or point RULECOREF_WORDNET / --wordnet at another copy.")),
    "RC304": Entry("{feature} needs the optional package(s) {modules}, which the base install leaves out",
                   hint="install the extra: pip install 'rulecoref[{extra}]' (scripts/setup.sh installs every extra)."),
    "RC305": Entry("spaCy pipeline {model!r} ({where}) cannot be loaded: {detail}",
                   hint=("install a spaCy pipeline with a parser (python -m spacy download en_core_web_sm, or pip "
                         "install its package) and name it by package name or folder; docs/parser.md.")),
    "RC306": Entry("spaCy pipeline {model!r} ({where}) has no dependency parser; its components: {components}",
                   hint="name a pipeline with a 'parser' component, e.g. en_core_web_sm; docs/parser.md."),
    # -- web provider (RC311-RC314) --
    "RC311": Entry("web provider request for {word!r} failed: {detail}",
                   hint=("the word counts as unknown (not staff) and the batch goes on; check the url or turn "
                         "web.enabled off.")),
    "RC312": Entry("web provider returned a malformed body for {word!r}: {detail}"),
    "RC313": Entry("web provider cache {path!r} is not usable: {detail}",
                   hint="set web.cache to a writable SQLite file path."),
    "RC314": Entry("web provider stopped after {count} failures in a row; the remaining words count as unknown"),
    # -- UMLS database (RC4xx): loading (RC401-RC412) --
    "RC401": Entry("UMLS database {url} is not usable: {detail}",
                   hint="load it first: rulecoref umls load MRCONSO.RRF --db URL"),
    "RC402": Entry("{path} does not look like MRCONSO.RRF: line {line} has {got} fields, expected 18 (19 with the trailing '|')",
                   hint="give the MRCONSO.RRF of a UMLS release (META/MRCONSO.RRF), unzipped or as .gz."),
    "RC403": Entry("UMLS load failed: {detail}"),
    "RC404": Entry("malformed row ({detail}); skipped"),
    "RC405": Entry("{path} does not look like MRSTY.RRF: line {line} has {got} fields, expected 6 (7 with the trailing '|')",
                   hint="--mrsty takes META/MRSTY.RRF of the same release."),
    "RC406": Entry("more than {limit} malformed rows ({count} so far); the load stopped and the database was not changed",
                   hint="check the file is a complete, uncorrupted MRCONSO.RRF, or raise --max-malformed."),
    "RC407": Entry("{path}: none of its {lines} rows passed the filters ({filters}); the database was not changed",
                   hint=("check --lang / --sab / --exclude-sab against the file (languages are codes such as ENG, "
                         "SPA).")),
    "RC408": Entry("UMLS database {url} has no word-order-insensitive index (match: sorted)",
                   hint="reload with --sorted-index: rulecoref umls load MRCONSO.RRF --db URL --sorted-index --force"),
    "RC409": Entry("UMLS database {url} has no semantic types (the pass filters on semantic_types)",
                   hint=("reload with semantic types: rulecoref umls load MRCONSO.RRF --db URL --mrsty MRSTY.RRF "
                         "--force")),
    "RC410": Entry("{path} is truncated or corrupt ({detail}); the load stopped and the database was not changed",
                   hint="download or unpack the file again (gzip -t FILE.gz tests a .gz)."),
    "RC411": Entry("{path} is empty: nothing to load; the database was not changed",
                   hint="give the MRCONSO.RRF of a UMLS release (META/MRCONSO.RRF), unzipped or as .gz."),
    "RC412": Entry("{path}: a line longer than {limit} characters; the load stopped and the database was not changed",
                   hint=("RRF lines are short (a row of |-separated fields): check the file is MRCONSO.RRF / "
                         "MRSTY.RRF.")),
    # -- UMLS: network sources (RC420-RC422) --
    "RC420": Entry("UMLS database {url} is a server, named by the rule file: a rule file alone never makes rulecoref open a network connection",
                   hint=("set the URL in $RULECOREF_UMLS_DB (it is yours, not the rule file's), or pass "
                         "--allow-network if you trust the rule file to connect there (docs/security.md).")),
    "RC421": Entry("UMLS database {url} is a server: this command never opens a network connection",
                   hint=("check and web --dry-run read local files only: give a SQLite copy "
                         "(RULECOREF_UMLS_DB=FILE) to check the UMLS pass's examples (docs/security.md).")),
    "RC422": Entry("--db {url} is a database in memory: what umls load puts there is gone when the command ends",
                   hint="give a file (--db umls.sqlite) or a server URL; an in-memory database suits only tests."),
    # -- command line (RC5xx): output folder, locks, options (RC501-RC513) --
    "RC501": Entry("output directory {path!r} already holds {count} file(s) of an earlier run (.txt.chains and the like)",
                   hint="pass --overwrite to replace them, or choose an empty directory."),
    "RC505": Entry("output folder {path!r} is an input folder or inside one ({input}); inputs are never written to",
                   hint=("write the outputs to a folder of their own, e.g. beside DATA, not among its docs/, "
                         "concepts/ or chains/.")),
    "RC506": Entry("output folder {path!r} is in use by another rulecoref run (pid {pid} on {host}, started {started}: {command})",
                   hint=("two runs into one folder would mix or lose outputs: wait for that run to end, or choose "
                         "another --out.")),
    "RC507": Entry("output folder {path!r} holds a stale lock: the run that took it is gone (pid {pid}, started {started}: {command})",
                   hint="if no run uses the folder any more, clear the lock: rm {lock}"),
    "RC508": Entry("output folder {path!r} cannot be used: {detail}",
                   hint="--out names a folder: choose a path that is not a file and not under one."),
    "RC509": Entry("output folder {path!r} cannot be written: {detail}", hint="choose a folder you can write to."),
    "RC510": Entry("cannot write {path!r}: {detail}",
                   hint=("check the folder can be written and has space (a full disk, a read-only file system); "
                         "every file is written whole or not at all, so the files written before are complete.")),
    "RC511": Entry("unknown text encoding {encoding!r}", hint="give a Python codec name, e.g. utf-8, latin-1, cp1252."),
    "RC512": Entry("{path!r} exists and no rulecoref run wrote it ({detail}); it is kept",
                   hint=("rulecoref never replaces or deletes a file it did not write: move it away, or choose "
                         "another output.")),
    "RC513": Entry("output {path!r} already exists", hint="pass --overwrite to replace it, or choose another name."),
    # -- view / convert / formats on the command line (RC520-RC527) --
    "RC520": Entry("cannot tell the format of {path!r}: {detail}",
                   hint="name it with --from ({formats})."),
    "RC521": Entry("{what} {path!r} not found"),
    "RC522": Entry("output {path!r} would overwrite the input {input!r}",
                   hint="choose another output folder; inputs are never modified."),
    "RC523": Entry("no system output for {doc!r} in {path!r}: the page shows no system chains for it"),
    "RC524": Entry("provenance file {path!r} cannot be read: {detail}"),
    "RC525": Entry("system chains of {doc!r} do not fit its concepts: {detail}"),
    "RC526": Entry("{path!r} already holds {count} {what} of an earlier run",
                   hint="pass --overwrite to replace them, or choose an empty folder."),
    "RC527": Entry("--resume needs the documents listed before the job: {format} rows that Spark reads itself have no names until it runs",
                   hint=("resume from local files (i2b2, brat or JSONL folders and files), or run the batch again "
                         "with --overwrite.")),
    # -- spaCy component and Spark runner (RC530-RC538) --
    "RC530": Entry("{what} has the columns {got}; rulecoref needs 'id' with 'text' (and 'concepts'), or 'id' with 'txt_path' and 'con_path'",
                   hint=("see docs/scale.md for the row schema: {{id, text, tokenized, concepts: [{{start, end, "
                         "type}}]}}.")),
    "RC531": Entry("{where}: {detail}",
                   hint=("a record row is {{id, txt_path, con_path}} (and kind, line, offset): files every "
                         "executor can read (rulecoref.spark.records_frame lists them; kind is an input format, "
                         "default i2b2).")),
    "RC532": Entry("document id {id!r} cannot name an output file: {detail}",
                   hint="a record row's id names its file ID.txt.chains: no '/', backslash or spaces at its ends."),
    "RC533": Entry("{count} rows have the document name {id!r} (their ids, as file names)",
                   hint="every id names one output file; make the ids unique."),
    "RC534": Entry("cannot start Spark: {detail}",
                   hint=("Spark needs Java: install Debian's default-jre-headless (apt-get install "
                         "default-jre-headless) or set JAVA_HOME.")),
    "RC535": Entry("cannot read {path!r} as {format}: {detail}"),
    "RC536": Entry("cannot tell what {path!r} holds: {detail}",
                   hint="name the format with --input-format (spark-resolve --help lists them)."),
    "RC537": Entry("spaCy component {name!r}: {detail}", hint="see docs/spacy.md for the component's settings."),
    "RC538": Entry("the Spark job failed: {detail}",
                   hint=("check the executors' Python has rulecoref installed (spark-resolve starts them with its "
                         "own interpreter unless PYSPARK_PYTHON or spark.pyspark.python names another; "
                         "docs/scale.md).")),
    # -- explain's mentions and documents (RC540-RC543) --
    "RC540": Entry("mention {spec!r}: {nth!r} after '#' is no occurrence number",
                   hint="'text#N' names the Nth occurrence of the text, counting from 1 ('mrsa#2' for the second)."),
    "RC541": Entry("explain takes one or two mentions, got {count}: {specs}",
                   hint=("quote a mention of several words ('chest pain'); to see every link of one mention, give "
                         "it alone.")),
    "RC542": Entry("no document {name!r} in {data} (its documents: {names})",
                   hint=("--doc takes a document's name, its file name before the first '.' (clinical-ex1 for "
                         "clinical-ex1.txt).")),
    "RC543": Entry("mention {spec!r}: {doc!r} has {count} mention(s) reading {text!r}",
                   hint="'text#N' counts from 1 up to the number of mentions that read the text."),
    # -- failures inside a run, usage (RC550-RC564) --
    "RC550": Entry("internal error while resolving this document: {detail}",
                   hint=("this is a bug in rulecoref or a rule kind: please report it with the document's .con "
                         "line count and the rule file.")),
    "RC551": Entry("the worker process resolving this document died before it finished",
                   hint="it may have run out of memory; run again with fewer --jobs."),
    "RC552": Entry("no input: give a {what}, files, or --file-list"),
    "RC553": Entry("{option}: {detail}"),
    "RC554": Entry("no mention {spec!r} in {doc!r}",
                   hint="a mention is 'L:T', 'L:T L:T' or its text ('text#2' for the second occurrence)."),
    "RC555": Entry("pick one document with --doc (found: {names})"),
    "RC556": Entry("the rule file's decoder is {kind!r}, not belltree",
                   hint="use rules/belltree.yaml or rules/hybrid.yaml, or a rule file whose decoder kind is belltree."),
    "RC557": Entry("no readable documents in {inputs}"),
    "RC558": Entry("output {path!r} {detail}"),
    "RC559": Entry("the run was interrupted ({signal}) before this document was resolved",
                   hint="run the batch again; the documents written before the interrupt are complete."),
    "RC560": Entry("out of memory while {doing}",
                   hint=("give rulecoref more memory, or smaller inputs: fewer --jobs, smaller word lists or "
                         "documents (the limits are in docs/security.md).")),
    "RC561": Entry("--model was given but {path!r} names no decoder",
                   hint="use a rule file with a decoder: rules/belltree.yaml or rules/hybrid.yaml."),
    "RC562": Entry("the rule file has no people_roles pass: the web command would send nothing",
                   hint="give a rule file with a people_roles pass, e.g. rules/people.yaml (docs/web-provider.md)."),
    "RC563": Entry("the web provider is disabled in the rule file (web.enabled: false)",
                   hint="run with --dry-run to see what would be sent; then set web.enabled: true and a url."),
    "RC564": Entry("find_mentions {value!r} is not one of {allowed}",
                   hint=("auto finds pronouns only in documents without pronoun concepts (NER output), on always, "
                         "off never (docs/rules.md, 'Finding mentions').")),
    # -- ablate, search and induce (RC570-RC579) --
    "RC570": Entry("{path}: no gold chains file for {doc!r}; the record is left out of learning",
                   hint="learning needs NAME.txt.chains beside the concepts (an i2b2 release's chains/ folder)."),
    "RC571": Entry("no documents with gold chains in {inputs}"),
    "RC572": Entry("the rule file {path!r} builds chains with the {kind!r} decoder; {command} measures union-find chains",
                   hint=("give --rules/--base a rule file without a decoder: section (the Bell-tree decoder is "
                         "trained, not induced).")),
    "RC573": Entry("{count} document(s) are too few to hold some back (at least {need} are needed)",
                   hint=("give more annotated documents, or --holdout 0 to choose rules on the training documents "
                         "alone.")),
    "RC575": Entry("document {doc!r} is left out: {detail}"),
    "RC576": Entry("the learned rule file {path!r} does not pass its own check: {detail}",
                   hint="this is a bug in rulecoref's rule induction: please report it with the command line."),
    "RC577": Entry("{option}: {detail}"),
    "RC578": Entry("rule file {path!r} cannot be rewritten: {detail}",
                   hint=("--search edits the top-level passes of a file it can read line by line; keep each pass a "
                         "YAML mapping of its own.")),
    "RC579": Entry("predicate {name!r} is left out of the search: it failed on these documents ({detail})",
                   hint="this is a bug in the predicate: please report it with the documents' concept files."),
    # -- models (RC6xx): Bell tree model files (RC601-RC607) --
    "RC601": Entry("model file {path!r}: {detail}"),
    "RC602": Entry("model file {path!r} has format version {got!r}; this rulecoref reads version {expected}",
                   hint="retrain it with this version: rulecoref train GOLD_DIR --model PATH"),
    "RC603": Entry("model file {path!r} not found",
                   hint=("train one with rulecoref train GOLD_DIR --model PATH, or pass --model PATH to rulecoref "
                         "resolve.")),
    "RC604": Entry("model {path!r} was trained with rule passes ({passes}) that this rule file does not run",
                   hint=("a hybrid model needs the rule file it was trained with (--rules at training time), e.g. "
                         "rules/hybrid.yaml.")),
    "RC605": Entry("cannot train: {detail}"),
    "RC606": Entry("model file {path!r} is over a limit: {detail}",
                   hint="a model is the JSON that rulecoref train writes; the limits are in docs/security.md."),
    "RC607": Entry("model file {path!r}: {where}: expected {expected}, got {got}",
                   hint=("a model is the JSON that rulecoref train writes: retrain it, or check the path names a "
                         "model.")),
    # -- evaluation (RC7xx) (RC701-RC717) --
    "RC701": Entry("system mention {mention} is not a gold concept of {doc!r}, nor the words of its text there",
                   hint=("system chains may only use the gold concepts and, when the gold folder has docs/, "
                         "mentions of its text (twinless ones, docs/evaluation.md): check the system was run on "
                         "this gold folder.")),
    "RC702": Entry("system file {path!r} has no gold counterpart (no {expected})",
                   hint="system files are matched to gold records by the name before the first '.'."),
    "RC703": Entry("no {side} chains file for {doc!r}: every concept of it is scored as a singleton"),
    "RC704": Entry("gold chain mention {mention} is not a concept of {doc!r}"),
    "RC705": Entry("no gold documents found in {path!r}",
                   hint="the gold folder needs concepts/*.txt.con and chains/*.txt.chains (or pass --concepts DIR)."),
    "RC706": Entry("--mode i2b2 needs the same mentions in key and response: {detail}",
                   hint="score CoNLL files with system mentions in --mode conll."),
    "RC707": Entry("malformed CoNLL line: {detail}"),
    "RC708": Entry("mention of entity {entity} {detail}"),
    "RC709": Entry("duplicate document id {doc!r} (first on line {first})"),
    "RC710": Entry("{count} repeated mention(s) in the response of {doc!r} were dropped (the first one is kept)"),
    "RC711": Entry("unknown scoring mode {mode!r}; known: {known}"),
    "RC712": Entry("{what} {path!r} not found"),
    "RC713": Entry("mentions {a} and {b} of one entity cross; CoNLL cannot express that, so {b} may be read back wrong",
                   hint="split one of the two mentions into another entity, or keep the i2b2 files."),
    "RC714": Entry("CoNLL mention {mention} of {doc!r} is not a concept in {path!r}"),
    "RC715": Entry("no text for {doc!r}: converting to CoNLL needs {expected}"),
    "RC716": Entry("document {doc!r} of the response is not in the key; it is ignored"),
    "RC717": Entry("CoNLL document {doc!r} has {got} tokens but the reference text {path!r} has {expected}"),
    # -- evaluation: inconsistent inputs (RC718-RC719) --
    "RC718": Entry("{side} chain mention {mention} reads {given!r}, but the concept at those offsets reads {expected!r}",
                   hint=("mentions are scored by their offsets; check the chains were made from this version of "
                         "the concept file.")),
    "RC719": Entry("a second concept file for document {doc!r} (the first is {first})",
                   hint="documents are named by what comes before the first '.'; keep one concept file per document."),

}
# fmt: on


#: Codes moved into their honest range (old -> new), listed in docs/errors.md: the old numbers stay
#: out of ``ERRORS`` so that a search for one finds this map, never a different message.
RENUMBERED: dict[str, tuple[str, ...]] = {
    "RC132": ("RC561",),  # about --model, a command-line option, not a rule
    "RC270": ("RC564",),  # the find_mentions option of the Pipeline / --find-mentions, not an input
    "RC280": ("RC305",),  # a spaCy pipeline that cannot be loaded is a resource (ResourceError)
    "RC281": ("RC306",),
    "RC310": ("RC135",),  # a rule file's setting, found by the rule-file checker
    "RC315": ("RC562", "RC563"),  # the web command's two refusals, each with its own message
    "RC580": ("RC134",),  # filter made_by is a rule-file error, not a command-line one
}


class _Keep(dict):
    """Format fields where a missing one shows as ``{name}`` instead of crashing."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _listed_fields() -> frozenset[str]:
    """The fields a template lists after a colon ("allowed: {allowed}", "(found: {names})"): an
    empty one reads "none", never "allowed:  Hint: ..."."""
    return frozenset(m for e in ERRORS.values() for m in re.findall(r":\s*\{(\w+)(?:![rs])?\}", e.message))


LISTED = _listed_fields()


def format_message(code: str, **fields: object) -> str:
    """Fill the template for ``code``; a missing field shows as ``{name}`` instead of crashing, and
    an empty list field (``LISTED``) as "none"."""
    for key in LISTED.intersection(fields):
        value = fields[key]
        if (isinstance(value, str) and not value.strip()) or (isinstance(value, (list, tuple, set, frozenset)) and not value):
            fields[key] = "none"
    return ERRORS[code].message.format_map(_Keep(fields))


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
        hint=hint if hint is not None else _table_hint(code, fields),
        severity=severity,
    )


def _table_hint(code: str, fields: dict[str, object]) -> str | None:
    hint = ERRORS[code].hint
    return hint.format_map(_Keep(fields)) if hint is not None else None


def argument_message(code: str, **fields: object) -> str:
    """The text of an argparse type error, "[code] detail": argparse prints it after its own
    "argument --jobs:", which is the template's "{option}: " part, so only the rest is filled."""
    template = ERRORS[code].message
    if not template.startswith("{option}: "):
        raise ValueError(f"{code}'s message does not start with the option: {template!r}")
    return str(Diagnostic(code, template.removeprefix("{option}: ").format_map(_Keep(fields)),
                          hint=_table_hint(code, fields)))


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
