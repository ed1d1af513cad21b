"""Settings precedence: defaults < [tool.fullgraph] < initializationOptions < workspace configuration."""

from fullgraph.lsp.settings import Settings, client_section


def test_client_section_accepts_the_shapes_clients_send():
    assert client_section({"settings": {"debounce": 5}}) == {"debounce": 5}
    assert client_section({"fullgraph": {"run": "onSave"}}) == {"run": "onSave"}
    assert client_section([{"settings": {"enable": False}}]) == {"enable": False}
    assert client_section(None) == {} and client_section("junk") == {}


def test_precedence_and_project_keys(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.fullgraph]\nrun = "onSave"\ndebounce = 50\nignore = ["FG3"]\nseverity = { FG1 = "error" }\n')
    settings = Settings()
    settings.update({"settings": {"debounce": 0}})
    effective = settings.for_path(str(tmp_path / "m.py"))
    assert (effective.run, effective.debounce_s, effective.enable) == ("onSave", 0.0, True)
    assert effective.config.ignore == ("FG3",) and effective.config.severity_for("FG101", "warning") == "error"
    settings.update({"settings": {"debounce": 0}}, {"ignore": [], "assumeCompiled": "all", "confirm": {"enable": True}})
    effective = settings.for_path(str(tmp_path / "m.py"))
    assert effective.config.ignore == () and effective.config.assume_compiled == "all"
    assert effective.confirm["enable"] is True and effective.confirm["timeout"] == 120


def test_bad_values_fall_back_and_are_reported(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.fullgraph\n")
    errors = []
    settings = Settings(on_error=errors.append)
    settings.update({"assumeCompiled": "sometimes", "debounce": "soon", "run": "never"})
    effective = settings.for_path(str(tmp_path / "m.py"))
    assert (effective.run, effective.debounce_s) == ("onType", 0.2)
    assert effective.config.assume_compiled == "modules"
    assert len(errors) == 4 and "pyproject" in errors[0] and "assume_compiled" in errors[1]
    assert "fullgraph.run" in errors[2] and "fullgraph.debounce" in errors[3]


def test_one_ill_typed_setting_keeps_the_valid_ones(tmp_path):
    errors = []
    settings = Settings(on_error=errors.append)
    settings.update({"assumeCompiled": "all", "select": 7, "ignore": ["FG3"], "enable": "yes", "debounce": 50})
    effective = settings.for_path(str(tmp_path / "m.py"))
    assert effective.config.assume_compiled == "all" and effective.config.ignore == ("FG3",)
    assert effective.config.select == ("FG",) and effective.enable is True and effective.debounce_s == 0.05
    assert len(errors) == 2 and "fullgraph.select = 7" in errors[0] and "fullgraph.enable = 'yes'" in errors[1]


def test_an_endless_debounce_is_refused(tmp_path):
    settings = Settings(on_error=lambda message: None)
    settings.update({"debounce": float("inf")})
    assert settings.for_path(str(tmp_path / "m.py")).debounce_s == 0.2


def test_a_bad_project_setting_is_left_out_and_the_others_kept(tmp_path):
    """The CLI refuses such a file (exit 2); the editor keeps squiggling with the valid settings."""
    (tmp_path / "pyproject.toml").write_text('[tool.fullgraph]\nignore = ["FG3"]\nselct = ["FG1"]\nrun = "onSave"\n')
    errors = []
    effective = Settings(on_error=errors.append).for_path(str(tmp_path / "m.py"))
    assert effective.config.ignore == ("FG3",) and effective.run == "onSave"
    assert len(errors) == 1 and "unknown setting 'selct'" in errors[0]
