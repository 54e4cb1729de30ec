"""Passwords, tokens and keys in a project's code and configuration files are stored as "***": passages are
given to a model that can fetch web pages, and a page could ask it to send them out. Prose about passwords,
and documents' examples, stay as written."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.backtracking import nested_repeats
from tinyrag_desktop.kb import Importer, ImportReport, open_store, secret_values
from tinyrag_desktop.kb.secret_values import hide_secrets

SECRETS = ("hunter2", "sk-live-4eC39HqLyjWDarjtT1zdp7dc", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
           "ghp_16C7e42F292c6912E7710c838347Ae178B4a", "s3cr3t-db-pass", "MIIEowIBAAKCAQEA7bq98",
           "hook-token-9f8e7d", "pa55word-in-json")

PROJECT = {
    "app.ini": "[database]\nhost = db.internal\npassword = hunter2\n# the password must be 8 characters or more\n",
    "settings.py": ('"""Settings."""\nimport os\n\nSTRIPE_API_KEY = "sk-live-4eC39HqLyjWDarjtT1zdp7dc"\n'
                    'DATABASE_URL = "postgres://app:s3cr3t-db-pass@db.internal/app"\n'
                    'token = os.environ["TOKEN"]\nmax_tokens = 512\n\n\ndef login(password):\n'
                    '    """Check the password the user typed."""\n    return password == os.environ["PASSWORD"]\n'),
    "deploy.yaml": ("aws:\n  region: eu-west-1\n  aws_secret_access_key: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"
                    "  password: ${DB_PASSWORD}\n  deploy_key: |\n    -----BEGIN RSA PRIVATE KEY-----\n"
                    "    MIIEowIBAAKCAQEA7bq98\n    -----END RSA PRIVATE KEY-----\n"),
    "client.js": 'const githubToken = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";\nconst tokens = [];\n',
    "hooks.json": '{"webhook": {"url": "https://example.org/hook", "token": "hook-token-9f8e7d"}, "retries": 3}\n',
    "db.json": '{"users": [{"name": "ann", "password": "pa55word-in-json"}]}\n',
    "README.md": ("# App\n\nThe password must be 8 characters. In `app.ini` write:\n\n"
                  "```ini\npassword = changeme\n```\n"),
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "app"
    root.mkdir()
    for name, text in PROJECT.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def _passages(db: Path) -> dict[str, str]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT s.location, c.text FROM chunks c JOIN sources s ON s.id = c.source_id").fetchall()
    texts: dict[str, str] = {}
    for location, text in rows:
        texts[Path(location).name] = texts.get(Path(location).name, "") + text + "\n"
    return texts


def _imported_without(tmp_path: Path, root: Path, *secrets: str) -> tuple[str, ImportReport]:
    """The passages stored from importing ``root``, checked to hold none of ``secrets``, and the import's report."""
    with open_store(tmp_path / "data") as kb:
        report = Importer(kb, chunk_size=1200).run([str(root)])
    stored = "".join(_passages(tmp_path / "data" / "knowledge.db").values())
    for secret in secrets:
        assert secret not in stored, secret
    return stored, report


def test_secrets_in_a_project_are_stored_hidden_and_the_summary_counts_them(tmp_path, project) -> None:
    data = tmp_path / "data"
    with open_store(data) as kb:
        report = Importer(kb, chunk_size=1200).run([str(project)])
    assert not report.failed and len(report.added) == len(PROJECT)
    texts = _passages(data / "knowledge.db")
    stored = "".join(texts.values())
    for secret in SECRETS:
        assert secret not in stored, secret
    assert "password = ***" in texts["app.ini"]
    assert 'STRIPE_API_KEY = "***"' in texts["settings.py"]
    assert "postgres://app:***@db.internal/app" in texts["settings.py"]
    assert "aws_secret_access_key: ***" in texts["deploy.yaml"]
    assert "-----BEGIN RSA PRIVATE KEY-----\n***\n-----END RSA PRIVATE KEY-----" in texts["deploy.yaml"]
    assert 'githubToken = "***"' in texts["client.js"]
    assert "token: ***" in texts["hooks.json"] and "password: ***" in texts["db.json"]
    # what is no secret stays as written: prose, references to secrets kept elsewhere, counts, code
    assert "# the password must be 8 characters or more" in texts["app.ini"]
    assert "password: ${DB_PASSWORD}" in texts["deploy.yaml"]
    assert 'token = os.environ["TOKEN"]' in texts["settings.py"] and "max_tokens = 512" in texts["settings.py"]
    assert 'return password == os.environ["PASSWORD"]' in texts["settings.py"]
    assert "const tokens = [];" in texts["client.js"]
    # a document's example is what it is read for
    assert "password = changeme" in texts["README.md"] and "The password must be 8 characters." in texts["README.md"]

    assert report.hidden == 8
    assert "8 passwords or keys hidden (stored as ***)" in report.in_words()
    assert "8 passwords or keys hidden (stored as ***)" in report.summary()


def test_kb_add_says_how_many_were_hidden_also_from_reader_processes(tmp_path, project) -> None:
    # a dozen files or more are read by reader processes: the count travels back with each document
    for n in range(12):
        (project / f"more{n}.ini").write_text(f"[s]\napi_key = key-number-{n}-abcdef\n", encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "tinyrag_desktop", "--data-dir", str(tmp_path / "data"), "kb", "add",
                          str(project)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "20 passwords or keys hidden (stored as ***)" in out.stdout
    assert "key-number-3-abcdef" not in json.dumps(_passages(tmp_path / "data" / "knowledge.db"))


def test_a_private_key_file_named_by_itself_is_stored_without_its_key(tmp_path) -> None:
    key = tmp_path / "id_rsa"  # no extension: read as text
    key.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU\n"
                   "-----END OPENSSH PRIVATE KEY-----\n", encoding="utf-8")
    env = tmp_path / ".env"
    env.write_text("DEBUG=1\nOPENAI_API_KEY=sk-proj-abcdef0123456789\n", encoding="utf-8")
    with open_store(tmp_path / "data") as kb:
        report = Importer(kb, chunk_size=1200).run([str(key), str(env)])
    texts = _passages(tmp_path / "data" / "knowledge.db")
    assert "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU" not in texts["id_rsa"] and "***" in texts["id_rsa"]
    assert "OPENAI_API_KEY=***" in texts[".env"] and "DEBUG=1" in texts[".env"]
    assert report.hidden == 2


@pytest.mark.parametrize("text", [
    "the password must be 8 characters\n", "password: the one on the card\n", "password: |\n  set below\n",
    "secret: true\n", 'token = "("\n', 'error = "invalid token"\n',
    'if password == "hunter2":\n', "token_url: https://example.org/token\n", "max_tokens: 4096\n",
    "password: <your password>\n", "api_key: {{ vault_api_key }}\n", "password = ***\n", "password=\n",
])
def test_what_is_no_secret_stays_as_written(text: str) -> None:
    assert hide_secrets(text, unquoted=True) == (text, 0)


@pytest.mark.parametrize("text, hidden", [
    ("password = hunter2\n", "password = ***\n"),
    ("db_passwd=hunter2  # production\n", "db_passwd=***  # production\n"),
    ("spring.datasource.password=hunter2\n", "spring.datasource.password=***\n"),
    ('export GITHUB_TOKEN="ghp_abcdef123456"\n', 'export GITHUB_TOKEN="***"\n'),
    ('{"client_secret": "abc123xyz"}', '{"client_secret": "***"}'),
    ("conn = connect(password='hunter2', user='ann')\n", "conn = connect(password='***', user='ann')\n"),
    ('Password: "hunter2",\n', 'Password: "***",\n'),
    ('apiKey := "sk-1234"\n', 'apiKey := "***"\n'),
    (":private_key => 'abcdef'\n", ":private_key => '***'\n"),
    ("credentials = oauth:hunter2\n", "credentials = ***\n"),
    ("db: {user: ann, password: hunter2}\n", "db: {user: ann, password: ***}\n"),
    ("DB_PASSWORD=ab&cd1234\n", "DB_PASSWORD=***\n"),  # its own "&" chains no command
])
def test_a_secret_assigned_in_the_usual_ways_is_hidden(text: str, hidden: str) -> None:
    assert hide_secrets(text, unquoted=True) == (hidden, 1)


def test_in_a_program_an_unquoted_value_is_code_not_a_secret() -> None:
    text = "password = read_password()\ntoken = tokens[0]\n"
    assert hide_secrets(text, unquoted=False) == (text, 0)


@pytest.mark.parametrize("text, unquoted, hidden", [
    ('api_key: str = "sk-live-abcdef123456"\n', False, 'api_key: str = "***"\n'),
    ('private apiKey: string = "hunter2hunter2";\n', False, 'private apiKey: string = "***";\n'),
    ('os.environ["API_KEY"] = "hunter2hunter2"\n', False, 'os.environ["API_KEY"] = "***"\n'),
    ('config["password"] = "hunter2hunter2"\n', False, 'config["password"] = "***"\n'),
    ("RUN mysql -u root --password=hunter2hunter2 < init.sql\n", True, "RUN mysql -u root --password=*** < init.sql\n"),
    ("ENV DB_PASSWORD hunter2hunter2\n", True, "ENV DB_PASSWORD ***\n"),
    ("curl -u admin:hunter2hunter2 https://example.org\n", True, "curl -u admin:*** https://example.org\n"),
    ('headers = {"Authorization": "Bearer abcdef0123456789"}\n', False, 'headers = {"Authorization": "Bearer ***"}\n'),
    ("secret_key_base: 3f9a0c4e7b1d2a6f8e5c\n", True, "secret_key_base: ***\n"),
    ("signing_key: 9b8c7d6e5f4a3b2c1d0e\n", True, "signing_key: ***\n"),
    ("encryption_key: 00112233445566778899\n", True, "encryption_key: ***\n"),
    ("RAILS_MASTER_KEY=8f7e6d5c4b3a29180716\n", True, "RAILS_MASTER_KEY=***\n"),
    ("DB_PASS=hunter2hunter2\n", True, "DB_PASS=***\n"),
    ("MYSQL_PWD=hunter2hunter2\n", True, "MYSQL_PWD=***\n"),
    # a service's key is hidden wherever it stands, its prefix kept
    ('call(url, "ghp_16C7e42F292c6912E7710c838347Ae178B4a")\n', False, 'call(url, "ghp_***")\n'),
    ("aws configure set key AKIAIOSFODNN7EXAMPLE\n", True, "aws configure set key AKIA***\n"),
])
def test_a_secret_in_the_forms_programs_and_scripts_also_use_is_hidden(text: str, unquoted: bool, hidden: str) -> None:
    assert hide_secrets(text, unquoted=unquoted) == (hidden, 1)


@pytest.mark.parametrize("text", [
    '{"base_url": "Server URL", "api_key": "API key"}\n', 'FLAGS = {"api_key": "api_key"}\n',
    'credentials = "{0}:{1}".format(user, passwd)\n', 'token = "%s:%s" % (user, passwd)\n',
    'random_device(const std::string& __token = "default") { }\n',
    'login.token: Jeton\n', 'login.password: "Mot de passe"\n', 'forgot_password = "Mot de passe oublié ?"\n',
    "bypass = hunter2hunter2\n", "PWD=/home/ann/project\n", "pass the --password option, then --bypass=everything\n",
    "Basic authentication and Bearer tokens\n", "the sk-button-primary class\n",
    # a passphrase of words is taken for a sentence: prose is what a search finds
    'ADMIN_PASSWORD = "correct horse battery staple"\n',
])
def test_labels_templates_defaults_and_names_are_no_secrets(text: str) -> None:
    assert hide_secrets(text, unquoted=True) == (text, 0)


@pytest.mark.parametrize("text", [
    "fetch(url, { credentials: 'include' })\n", "fetch(url, { credentials: 'same-origin' })\n",
    "self.token = 'IDENTIFIER'\n", "next_token = 'SEMICOLON'\n", "token: 'punctuation',\n",
    "first_pass = 'inline'\n", "password: 'passwort'\n",
])
def test_fetch_modes_constants_token_kinds_passes_and_translations_are_no_secrets(text: str) -> None:
    assert hide_secrets(text, unquoted=False) == (text, 0)


@pytest.mark.parametrize("text, hidden", [
    ("0.token: ghx09f8e7d6c5b4a\n", "0.token: ***\n"),  # a JSON file that is a list, as its reader writes it
    ("PGPASSWORD=hunter2x psql -h db -U app\n", "PGPASSWORD=*** psql -h db -U app\n"),
    ("mysql -u root -phunter2x mydb\n", "mysql -u root -p*** mydb\n"),
    ("SMTP_PASS=hunter2hunter2\n", "SMTP_PASS=***\n"),
])
def test_a_secret_in_a_json_list_or_given_to_a_database_client_is_hidden(text: str, hidden: str) -> None:
    assert hide_secrets(text, unquoted=True) == (hidden, 1)


def test_a_private_key_in_a_one_line_string_stays_on_one_line() -> None:
    text = 'key = "-----BEGIN RSA PRIVATE KEY-----\\nMIIEowIBAAKCAQEA7bq98\\n-----END RSA PRIVATE KEY-----\\n"\n'
    assert hide_secrets(text, assignments=False) == (
        'key = "-----BEGIN RSA PRIVATE KEY-----\\n***\\n-----END RSA PRIVATE KEY-----\\n"\n', 1)


def test_a_password_in_an_xml_configuration_file_is_hidden(tmp_path) -> None:
    settings = tmp_path / "settings.xml"
    settings.write_text("<settings><servers><server><id>nexus</id><username>deploy</username>"
                        "<password>s3cr3t-nexus-pass</password></server></servers></settings>\n", encoding="utf-8")
    with open_store(tmp_path / "data") as kb:
        report = Importer(kb, chunk_size=1200).run([str(settings)])
    texts = _passages(tmp_path / "data" / "knowledge.db")
    assert "s3cr3t-nexus-pass" not in texts["settings.xml"] and "password: ***" in texts["settings.xml"]
    assert "username: deploy" in texts["settings.xml"] and report.hidden == 1


@pytest.mark.parametrize("text, unquoted, hidden", [
    # a user's name and password given to a call: requests, aiohttp, httpx
    ("r = requests.get(url, auth=('ann', 's3cr3t-Pa55'))\n", False, "r = requests.get(url, auth=('ann', '***'))\n"),
    ('session.auth = ("ann", "s3cr3t-Pa55")\n', False, 'session.auth = ("ann", "***")\n'),
    ('es = Elasticsearch(hosts, http_auth=("ann", "s3cr3t-Pa55"))\n', False,
     'es = Elasticsearch(hosts, http_auth=("ann", "***"))\n'),
    ("auth = HTTPBasicAuth('ann', 's3cr3t-Pa55')\n", False, "auth = HTTPBasicAuth('ann', '***')\n"),
    ('auth = aiohttp.BasicAuth("ann", "s3cr3t-Pa55")\n', False, 'auth = aiohttp.BasicAuth("ann", "***")\n'),
    ('{"auth": ["ann", "s3cr3t-Pa55"]}\n', False, '{"auth": ["ann", "***"]}\n'),
    # the password of a JDBC address or a .NET connection string, what is after it kept
    ('c = DriverManager.getConnection("jdbc:postgresql://db/app?user=ann&password=hunter2x9");\n', False,
     'c = DriverManager.getConnection("jdbc:postgresql://db/app?user=ann&password=***");\n'),
    ('url: "jdbc:postgresql://db/app?user=ann&password=hunter2x9"\n', True,
     'url: "jdbc:postgresql://db/app?user=ann&password=***"\n'),
    ("url: jdbc:mysql://db/app?user=ann&password=hunter2x9&useSSL=false\n", True,
     "url: jdbc:mysql://db/app?user=ann&password=***&useSSL=false\n"),
    ("<url>jdbc:mysql://db/app?user=ann&amp;password=hunter2x9&amp;useSSL=false</url>\n", True,
     "<url>jdbc:mysql://db/app?user=ann&amp;password=***&amp;useSSL=false</url>\n"),
    ('conn = "Server=db;Database=app;User Id=ann;Password=hunter2x9;Encrypt=true"\n', False,
     'conn = "Server=db;Database=app;User Id=ann;Password=***;Encrypt=true"\n'),
    ('dsn = "Host=db;Port=5432;Database=app;Username=ann;Password=p.a55word;"\n', False,
     'dsn = "Host=db;Port=5432;Database=app;Username=ann;Password=***;"\n'),
    ("ConnectionStrings.Default: Server=db;Uid=ann;Pwd=hunter2x9;\n", True,
     "ConnectionStrings.Default: Server=db;Uid=ann;Pwd=***;\n"),
    # PHP's constants, WordPress's keys
    ("define('DB_PASSWORD', 'xyzzy-pa55');\n", False, "define('DB_PASSWORD', '***');\n"),
    ("define( 'AUTH_KEY', 'b7#Qz!p0vL@x-Kd2' );\n", False, "define( 'AUTH_KEY', '***' );\n"),
    # setters and builders; of several arguments, the last
    ('ds.setPassword("hunter2x9");\n', False, 'ds.setPassword("***");\n'),
    ("user.set_password('hunter2x9')\n", False, "user.set_password('***')\n"),
    ('db = new PostgreSQLContainer("postgres").withPassword("hunter2x9");\n', False,
     'db = new PostgreSQLContainer("postgres").withPassword("***");\n'),
    ('client = Client.builder().apiKey("k-0123456789ab").build();\n', False,
     'client = Client.builder().apiKey("***").build();\n'),
    ('keyring.set_password("deploy", "ann", "hunter2x9")\n', False, 'keyring.set_password("deploy", "ann", "***")\n'),
    ('client.SetAccessToken("tok-0123456789")\n', False, 'client.SetAccessToken("***")\n'),
    # the keys of more services, wherever they stand, their prefix kept; without a digit too
    ('HfApi().whoami("hf_aBcDeFgHiJkLmNoPqRsTuVwXyZaBcDeFgH")\n', False, 'HfApi().whoami("hf_***")\n'),
    ("--build-arg 'GO_REPO=glpat-tFrjFXDnsoVUfqxuDMhR'\n", True, "--build-arg 'GO_REPO=glpat-***'\n"),
    ("echo npm_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789 | npm login\n", True, "echo npm_*** | npm login\n"),
    ("twine upload -u __token__ -p pypi-AgEIcHlwaS5vcmcCJGE0ZjI5ZTRhLTdiNjQt dist/*\n", True,
     "twine upload -u __token__ -p pypi-*** dist/*\n"),
    ('stripe.api_key_test = ["sk_test_4eC39HqLyjWDarjtT1zdp7dc"]\n', False, 'stripe.api_key_test = ["sk_test_***"]\n'),
    ("notify(SLACK, 'xoxp-2394857-2938475-AbCdEfGhIjKl')\n", False, "notify(SLACK, 'xoxp-***')\n"),
    ("sg = SendGridAPIClient('SG.aBcDeFgHiJkLmNoPqRsTuV.aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789aBcDeFg')\n", False,
     "sg = SendGridAPIClient('SG.***')\n"),
    # a letter whose lower case is longer (İ) in the text: the same
    ("İstanbul = 1\nauth = ('ann', 's3cr3t-Pa55')\n", False, "İstanbul = 1\nauth = ('ann', '***')\n"),
])
def test_credentials_in_calls_addresses_constants_setters_and_more_services_keys_are_hidden(
        text: str, unquoted: bool, hidden: str) -> None:
    assert hide_secrets(text, unquoted=unquoted) == (hidden, 1)


@pytest.mark.parametrize("text", [
    "session.auth = (username, password)\n", "auth=('ann', os.environ['PASSWORD'])\n",
    "auth = ('<user>', '<password>')\n", "'OAuth': ('oauth_get_sbs', 'oauth_urlencode'),\n",
    'url = base + "?token=" + token\n', 'fetch(`/api/items?token=${token}`)\n',
    "url: jdbc:postgresql://db/app?user=ann&password=${DB_PASSWORD}\n",
    'conn = "Server=db;Password={0};".format(password)\n', 'conn = "Server=db;Password=%s;" % password\n',
    "for (i = 0; token = next(); i++) {\n", "x = 1; password = read_password(); y = 2\n",
    "define('PASSWORD_MIN_LENGTH', '8');\n", "define( 'DB_PASSWORD', 'password_here' );\n",
    "define( 'AUTH_KEY', 'put your unique phrase here' );\n",
    "user.set_password(request.POST['password'])\n", 'user.setPassword("changeme");\n', 'user.setPassword("");\n',
    "lexer.setToken('punctuation')\n", 'form.setPasswordLabel("Password")\n', 'field.password("Mot de passe")\n',
    'API_KEY = "your-api-key"\n', "token: your_token_here\n",
    # names that start like a service's key
    "npm_package_devDependencies_typescript=5.4\n", "hf_hub_download(repo_id, filename)\n",
    "x = sk_test_split(Xtrain_Values_Long, y)\n", "glpat-xxxxxxxxxxxxxxxxxxxx\n",
    "msg.SomethingQuiteLongAndMixed.anotherFieldNameHere\n",
])
def test_calls_addresses_and_names_that_hold_no_secret_stay_as_written(text: str) -> None:
    assert hide_secrets(text, unquoted=True) == (text, 0)
    assert hide_secrets(text, unquoted=False) == (text, 0)


@pytest.mark.parametrize("text", [
    "a=b;token=c.next;d=e\n", "var q=x;secret=yy.value;\n", "i=0;n=len(xs);token=tokens.pop();x=1\n",
    "x=1;key=k.y\n", "x=1;accountKey=k.y;y=2\n", "for(int i=0;token=strtok(NULL, sep);i++)\n",
    # a variable named like a connection string's key (host, uid, driver), before the secret's name or after it
    "uid=getuid();pwd=getpwuid(uid);\n", "pwd=strdup(p);host=strdup(h);\n", "token=lexer.next();Database=db;\n",
    "token=nextToken(s);driver=d;\n", "address=addr;pwd=argv[2];uid=u;\n", "for(pwd=list;pwd;pwd=pwd->next);host=x;\n",
])
def test_compact_code_is_no_connection_string(text: str) -> None:
    # a statement after another, without spaces, was taken for a connection string's parameter: "token=***"
    assert hide_secrets(text) == (text, 0)


@pytest.mark.parametrize("text, unquoted, hidden", [
    ("Driver={ODBC Driver 18};Server=x;UID=ann;PWD={p;a}}ss};\n", True,
     "Driver={ODBC Driver 18};Server=x;UID=ann;PWD=***;\n"),
    ('cs = "Driver={ODBC Driver 18 for SQL Server};Server=tcp:db,1433;Uid=ann;Pwd={s3cr;t}}x};Encrypt=yes;"\n', False,
     'cs = "Driver={ODBC Driver 18 for SQL Server};Server=tcp:db,1433;Uid=ann;Pwd=***;Encrypt=yes;"\n'),
    ("Server=db;Driver={SQL Server Native Client 11.0};Password={hunter 2;x};\n", True,
     "Server=db;Driver={SQL Server Native Client 11.0};Password=***;\n"),
])
def test_an_odbc_connection_strings_braced_password_is_hidden_whole(text: str, unquoted: bool, hidden: str) -> None:
    # the braces, and the ";" and "}}" inside them, are the password's: it was left as written
    assert hide_secrets(text, unquoted=unquoted) == (hidden, 1)


@pytest.mark.parametrize("language, text, hidden", [
    # a Makefile's conditional and appending assignments
    ("make", "PASSWORD ?= hunter2x9\n", "PASSWORD ?= ***\n"),
    ("make", "API_TOKEN += hunter2x9\n", "API_TOKEN += ***\n"),
    ("make", "export SECRET_KEY ?= hunter2x9\n", "export SECRET_KEY ?= ***\n"),
    ("make", "DEPLOY_TOKEN?=hunter2x9  # CI overrides it\n", "DEPLOY_TOKEN?=***  # CI overrides it\n"),
    ("make", "DB_PASSWORD := hunter2x9\n", "DB_PASSWORD := ***\n"),
    # a batch file's value ends before the commands chained after it
    ("batch", 'set "PW=hunter2x9" & echo done\n', 'set "PW=***" & echo done\n'),
    ("batch", "set PASSWORD=hunter2x9 && call run.bat\n", "set PASSWORD=*** && call run.bat\n"),
    ("batch", "set PASSWORD=hunter2x9&& call run.bat\n", "set PASSWORD=***&& call run.bat\n"),
    ("batch", 'set "DB_PASSWORD=hunter2x9"&& call run.bat\n', 'set "DB_PASSWORD=***"&& call run.bat\n'),
    ("batch", "set ADMIN_PW=hunter2x9 & goto :eof\n", "set ADMIN_PW=*** & goto :eof\n"),
    ("batch", "set PW=hunter2x9&echo done\n", "set PW=***&echo done\n"),
    ("batch", "if x==y set DB_PASSWORD=ab^&cd12&&call run.bat\n", "if x==y set DB_PASSWORD=***&&call run.bat\n"),
])
def test_a_makefiles_and_a_batch_files_own_assignments_are_hidden(language: str, text: str, hidden: str) -> None:
    assert hide_secrets(text, unquoted=True, language=language) == (hidden, 1)


@pytest.mark.parametrize("text", [
    'cs = "Port=5432;Password=s3cr3t-x9;Host=db"\n', 'cs = "Password=s3cr3t-x9;Server=db"\n',
    'cs = "Encrypt=True;Password=s3cr3t-x9;Data Source=db"\n',
    'cs = "Persist Security Info=False;Password=s3cr3t-x9"\n',
    'cs = "Server=db;Application Name=My App;Password=s3cr3t-x9"\n',
    'cs = "Data Source=db;Initial Catalog=x;User ID=ann;Password=s3cr3t-x9;"\n',
    'cs = "DefaultEndpointsProtocol=https;AccountName=app;AccountKey=s3cr3t+x9/q==;EndpointSuffix=core.windows.net"\n',
    'cs = "Endpoint=sb://app.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=s3cr3t+x9/q="\n',
])
def test_a_connection_string_is_told_by_its_keys_wherever_they_stand(text: str) -> None:
    # its keys of its own (Host, Server, Data Source, AccountName) after the secret, or keys of several words,
    # tell it from compact code; its other pairs are kept as written
    for unquoted in (False, True):
        assert hide_secrets(text, unquoted=unquoted) == (re.sub(r"s3cr3t[^;\"]*", "***", text), 1)


@pytest.mark.parametrize("language, text, hidden", [
    ("yaml", "pw: 100px\n", "pw: 100px\n"), ("yaml", "pw: 1.5em\n", "pw: 1.5em\n"), ("yaml", "pw: 100%\n", "pw: 100%\n"),
    ("yaml", "pw: hunter2x9\n", "pw: ***\n"), ("sh", "DB_PW=hunter2x9\n", "DB_PW=***\n"),
    ("sh", "DB_PW=100pxq9\n", "DB_PW=***\n"), ("ini", "pw = hunter2x9\n", "pw = ***\n"),
])
def test_a_length_in_css_units_is_no_password(language: str, text: str, hidden: str) -> None:
    # "pw" is a password's name, and a style's too: "pw: 100px" was "pw: ***"
    assert hide_secrets(text, unquoted=True, language=language) == (hidden, int("***" in hidden))


def test_a_project_with_make_assignments_chained_commands_and_odbc_strings_stores_them_hidden(tmp_path) -> None:
    root = tmp_path / "ops"
    root.mkdir()
    (root / "Makefile").write_text("REGISTRY ?= ghcr.io/app\nDEPLOY_TOKEN ?= tok-make-9f8e\n\n"
                                   "deploy:\n\tdocker push $(REGISTRY)\n", encoding="utf-8")
    (root / "deploy.bat").write_text('@echo off\nset "DB_PW=bat-pw-7c6d" & echo starting\ncall run.bat\n',
                                     encoding="utf-8")
    (root / "odbc.ini").write_text("[app]\nconn = Driver={ODBC Driver 18};Server=db;UID=ann;PWD={odbc;pw}}5b};\n",
                                   encoding="utf-8")
    (root / "Db.cs").write_text('class Db {\n  const string Conn = "Password=cs-pw-4a3b;Data Source=db;";\n}\n',
                                encoding="utf-8")
    stored, report = _imported_without(tmp_path, root, "tok-make-9f8e", "bat-pw-7c6d", "odbc;pw", "5b}", "cs-pw-4a3b")
    assert "DEPLOY_TOKEN ?= ***" in stored and 'set "DB_PW=***" & echo starting' in stored
    assert "UID=ann;PWD=***;" in stored and '"Password=***;Data Source=db;"' in stored
    assert "REGISTRY ?= ghcr.io/app" in stored and report.hidden == 4


@pytest.mark.parametrize(("line", "hidden"), [
    ("password=hunter2x9;" + "Ab Cd=e;" * 10_000, 1), ("Ab " * 10_000 + "password=hunter2x9", 0), ("PWD={" * 10_000, 0),
    ("Server=x;token=a;" * 10_000, 0), ("password=" * 10_000, 0),
])
def test_a_long_line_of_pairs_is_read_in_time_proportional_to_its_length(line: str, hidden: int) -> None:
    # minified code on one line: the first connection string patterns read on from every pair to its end, 17 s for
    # 80 KB and four times that for twice as much (benchmarks/bench_hostile_inputs.py times these lines)
    stored, count = hide_secrets(line + "\n")
    assert count == hidden and stored == (line.replace("hunter2x9", "***") if hidden else line) + "\n"
    connection_strings = [p for p in secret_values._PATTERNS[False] + secret_values._PATTERNS[True]
                          if "data[ \\t]source" in p.pattern]
    assert len(connection_strings) == 4  # a secret after a key of its own, or before one; bare values or not
    assert [nested_repeats(p) for p in connection_strings] == [[]] * 4


@pytest.mark.parametrize("line, unquoted, language", [
    # one word of assignments, read again from each of its keys: 100 KB took 40 s
    ("password=" * 11_000 + " x", True, ""), ("pw:a," * 20_000 + " x", True, ""), ("pw=" * 33_000 + "' x", True, ""),
    ("password=a" + "}" * 100_000 + " x", True, ""),
    # a key's name read again from each "[" or "]" of a long word before it
    ("a[" * 50_000 + "password=x", False, ""), ("a]" * 50_000 + "password= x y", True, ""),
    # a command read to the end of its line from each of its words
    ("curl " * 20_000, False, ""), ("mysql " * 17_000, False, ""), ("PGPASSWORD=" * 9_000, False, ""),
    ('ConvertTo-SecureString "a" ' * 15_000, False, "ps"),
])
def test_a_long_hostile_line_of_any_form_is_read_in_time_proportional_to_its_length(line: str, unquoted: bool,
                                                                                     language: str) -> None:
    # a minified or hostile configuration file: its import would hang on one line
    started = time.process_time()
    hide_secrets(line + "\n", unquoted=unquoted, language=language)
    assert time.process_time() - started < 5


def test_a_long_value_is_hidden_whole_and_a_long_word_of_assignments_too() -> None:
    jwt = "eyJhbGciOiJIUzI1NiJ9." + "eyJzdWIiOiIxMjM0NTY3ODkwIn0" * 20 + ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
    assert hide_secrets(f"API_TOKEN={jwt}\nSIGNING_KEY = {'QUJD' * 100}==  # prod\n", unquoted=True) == (
        "API_TOKEN=***\nSIGNING_KEY = ***  # prod\n", 2)
    sas = "https://app.blob.core.windows.net/c?" + "&".join(f"sp{i}=r:w" for i in range(40)) + "&sig=abc%3D"
    assert hide_secrets(f"AZURE_SAS_TOKEN={sas}\n", unquoted=True) == ("AZURE_SAS_TOKEN=***\n", 1)
    assert "hunter2x9" not in hide_secrets("password=" * 1_000 + "hunter2x9\n", unquoted=True)[0]


@pytest.mark.parametrize("text", [
    "PWD={your-password};Server=db\n", "Server=db;PWD={0};\n", 'f"Server=db;Pwd={db_password};"\n',
    "PASSWORD ?= changeme\n", "API_TOKEN += your-api-key\n", 'set "PW=password_here" & echo done\n',
    "PASSWORD ?= $(shell cat .pw)\n",
])
def test_placeholders_and_references_in_the_new_forms_stay_as_written(text: str) -> None:
    assert hide_secrets(text, unquoted=True) == (text, 0)


def test_a_project_with_credentials_in_calls_and_connection_strings_counts_each_hidden(tmp_path) -> None:
    root = tmp_path / "svc"
    root.mkdir()
    (root / "client.py").write_text('import requests\n\nHF = "hf_aBcDeFgHiJkLmNoPqRsTuVwXyZaBcDeFgH"\n\n\n'
                                    "def fetch(url):\n    return requests.get(url, auth=('ann', 's3cr3t-Pa55'))\n",
                                    encoding="utf-8")
    (root / "Db.java").write_text('class Db {\n  void open() {\n    ds.setPassword("hunter2x9");\n'
                                  '    c = connect("jdbc:postgresql://db/app?user=ann&password=hunter3x9");\n  }\n}\n',
                                  encoding="utf-8")
    (root / "appsettings.json").write_text('{"ConnectionStrings": {"Default": "Server=db;User Id=ann;'
                                           'Password=hunter4x9;Encrypt=true"}}\n', encoding="utf-8")
    stored, report = _imported_without(tmp_path, root, "aBcDeFgHiJkLmNoPqRsTuVwXyZaBcDeFgH", "s3cr3t-Pa55", "hunter2x9",
                                       "hunter3x9", "hunter4x9")
    assert "Password=***;Encrypt=true" in stored and "auth=('ann', '***')" in stored
    assert report.hidden == 5 and "5 passwords or keys hidden (stored as ***)" in report.summary()


# Secrets in each of their forms, and pieces of them and of the words around them, put together at random.
_PIECES = [
    "password = hunter2x9", "db_pass: 'hunter2x9'", "PGPASSWORD=hunter2x9 psql", 'os.environ["API_KEY"] = "k-12345"',
    "apiKey := 'k-12345'", "secret_key_base: 3f9a0c4e7b", "credentials = oauth:hunter2x9", "curl -u ann:hunter2x9",
    "mysql -phunter2x9", "Bearer abcdef0123456789", "ENV DB_PASSWORD hunter2x9", "--db-pass=hunter2x9",
    "auth=('ann', 's3cr3t-Pa55')", "session.auth = ['ann', 's3cr3t-Pa55']", "HTTPBasicAuth('ann', 's3cr3t-Pa55')",
    'setPassword("hunter2x9")', '.apiKey("k-12345")', "define('DB_PASSWORD', 'hunter2x9')",
    "define('NONCE_SALT', 'x9-y8-z7')", "jdbc:mysql://db/app?user=ann&password=hunter2x9", "?a=1&amp;pwd=hunter2x9",
    "Server=db;User Id=ann;Password=hunter2x9;", "ghp_16C7e42F292c6912E7710c838347Ae178B4a", "sk-live-4eC39HqLyjWDarjt1",
    "AKIAIOSFODNN7EXAMPLE", "glpat-tFrjFXDnsoVUfqxuDMhR", "xoxb-1234567890-abcd", "hf_aBcDeFgHiJkLmNoPqRsTuVwXyZaBcDeFgH",
    "npm_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789", "pypi-AgEIcHlwaS5vcmcCJ",
    "SG.aBcDeFgHiJkLmNoPqRsTuV.aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789aBcDeFg",
    "$password = 'hunter2x9'", "password <- 'hunter2x9'", "requirepass hunter2x9", "db.password hunter2x9",
    "PASSWORD 'hunter2x9'", "IDENTIFIED BY 'hunter2x9'", '<add key="SmtpPassword" value="hunter2x9" />',
    "PASSWORD ?= hunter2x9", "export API_TOKEN += hunter2x9", 'set "PW=hunter2x9" & echo', "set DB_PW=hunter2x9 && ",
    "Driver={ODBC Driver 18};", "PWD={p;a}}ss};", "Persist Security Info=False;", "Password=hunter2x9;Host=db",
    "AccountKey=abc+/de==;", "Port=5432;", "?=", "+=", "{", "}", "pw", "@",
    "password", "token", "auth", "key", "monkey", "passage", "İ", "=", ":", " = ", "(", ")", ",", "'", '"', "]", "[", " ",
    "\t", ";", "&", "?", "_", "-", ".", "x", "$", "<-", "identified by ", "key=",
]


def _every_line(text: str, unquoted: bool, language_lines: object = None) -> list[tuple[int, int]]:
    spans, start = [], 0
    for line in text.split("\n"):
        spans.append((start, start + len(line)))
        start += len(line) + 1
    return spans


@settings(max_examples=1000)  # each a millisecond; a form alone on its line is drawn often enough
@given(st.lists(st.lists(st.sampled_from(_PIECES), max_size=3), max_size=8), st.booleans(),
       st.sampled_from(["", "conf", "properties", "sql", "xml"]))
def test_the_lines_left_unread_hold_nothing_the_patterns_would_hide(lines: list[list[str]], unquoted: bool,
                                                                    language: str) -> None:
    # only the lines where a value is given to a secret's name, or another form starts, are read: the same
    # is hidden as when every line is
    text = "\n".join("".join(pieces) for pieces in lines)
    every = pytest.MonkeyPatch()
    every.setattr(secret_values, "_secret_lines", _every_line)
    try:
        expected = hide_secrets(text, unquoted=unquoted, language=language)
    finally:
        every.undo()
    assert hide_secrets(text, unquoted=unquoted, language=language) == expected
