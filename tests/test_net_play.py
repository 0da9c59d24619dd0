"""Network play over loopback: whole games, the record they export, and what each seat's frames hold."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from click.testing import CliRunner
from net_support import (
    ROOT,
    RawPlayer,
    ServerThread,
    bounded,  # noqa: F401 - the autouse fixture that fails a hung test
    knowledge,
    stored_game,
)

from cli.main import main
from rulesengine.bots.registry import agent_seed, make_bot
from rulesengine.game.loop import play
from rulesengine.game.state import Game

AUSTRALIA = str(ROOT / "editions" / "australia.yaml")


@pytest.fixture
def server(tmp_path):
    running = ServerThread(tmp_path / "boom.sqlite")
    yield running
    running.stop()


def host(server, *args) -> str:
    result = CliRunner().invoke(main, ["host", server.url, *args, "--format", "json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["url"] == server.url
    return answer["table"]


async def play_all(*players, **options):
    return await asyncio.gather(*(p.play(**options) for p in players))


class FirstOption:
    def decide(self, view, decision):
        return decision.options[0]


def offline_sheet(edition, names, seed, kinds):
    """The same game without a network: first options for the scripted seats, seeded bots for the others."""
    game = Game(edition, names, seed)
    agents = [
        FirstOption() if kind == "first" else make_bot(kind, edition, agent_seed(seed, seat))
        for seat, kind in enumerate(kinds)
    ]
    return play(game, agents).scores.sheet()


def test_two_players_and_a_bot_finish_and_the_export_scores_the_same(server, tmp_path, australia):
    code = host(server, "australia", "--players", "3", "--bots", "1", "--bot-kind", "greedy", "--seed", "11")
    ana, ben = RawPlayer(server.url, code, "Ana"), RawPlayer(server.url, code, "Ben")
    asyncio.run(play_all(ana, ben))
    assert ana.final == ben.final
    assert ana.errors == [] and ben.errors == []
    assert ana.final["sheet"] == offline_sheet(australia, ["Ana", "Ben", "Bot 1"], 11, ["first", "first", "greedy"])
    runner = CliRunner()
    exported = runner.invoke(
        main,
        [
            "export",
            "--db",
            str(server.db),
            code,
            "--out",
            str(tmp_path / "game.json"),
            "--log",
            str(tmp_path / "g.jsonl"),
        ],
    )
    assert exported.exit_code == 0, exported.output
    assert f"log written to {tmp_path / 'g.jsonl'} (edition: " in exported.output    # a written file is said
    assert exported.output.endswith(f"record written to {tmp_path / 'game.json'}\n")
    replayed = runner.invoke(main, ["replay", str(tmp_path / "g.jsonl"), "--verify"])
    assert replayed.exit_code == 0, replayed.output
    assert "replay identically; game finished" in replayed.output
    scored = runner.invoke(main, ["score", AUSTRALIA, "--record", str(tmp_path / "game.json"), "--format", "json"])
    assert scored.exit_code == 0, scored.output
    assert json.loads(scored.output) == ana.final["sheet"]


def test_boom_join_plays_a_seat_as_a_bot_and_prints_the_final_sheet(server):
    code = host(server, "australia", "--players", "2", "--bots", "1", "--seed", "3")
    result = CliRunner().invoke(
        main, ["join", server.url, code.lower(), "--name", "Cy", "--bot", "random", "--bot-seed", "4", "-q"]
    )
    assert result.exit_code == 0, result.output
    assert "Final score sheet" in result.output and "Winner" in result.output
    game = stored_game(server.db, code)
    assert game.over and game.players == ["Cy", "Bot 1"]
    offline = play(
        Game(game.edition, ["Cy", "Bot 1"], 3),
        [make_bot("random", game.edition, 4), make_bot("greedy", game.edition, agent_seed(3, 1))],
    )
    assert game.scores.sheet() == offline.scores.sheet()


def card_letters(value, letters, out):
    if isinstance(value, str):
        if value in letters:
            out.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            card_letters(key, letters, out)
            card_letters(item, letters, out)
    elif isinstance(value, list):
        for item in value:
            card_letters(item, letters, out)
    return out


@pytest.mark.parametrize("edition, players, seed", [("australia", 3, 987654321), ("usa", 4, 192837465)])
def test_no_frame_holds_another_seats_hidden_cards_or_the_seed(server, edition, players, seed):
    code = host(server, edition, "--players", str(players), "--bots", "1", "--seed", str(seed))
    names = ["Ana", "Ben", "Cy", "Dee"][: players - 1]
    clients = [RawPlayer(server.url, code, name, choose=lambda view, pending: pending["options"][-1]) for name in names]

    async def illegal_once(player, socket, view, pending):  # an error frame is checked too
        if not player.errors and pending["kind"] == "draft":
            await socket.send(
                json.dumps(
                    {
                        "type": "decide",
                        "table": code,
                        "token": player.token,
                        "round": pending["round"],
                        "kind": "draft",
                        "category": None,
                        "id": pending["id"],
                        "answer": "?",
                    }
                )
            )

    async def first_drops_and_resumes():  # a reconnect snapshot mid-round is checked too
        await clients[0].play(stop_after=10, misbehave=illegal_once)
        await clients[0].play()

    async def everyone():
        await asyncio.gather(first_drops_and_resumes(), *(client.play() for client in clients[1:]))

    asyncio.run(everyone())
    assert [e["code"] for e in clients[0].errors] == ["illegal"]
    game = stored_game(server.db, code)
    assert game.over
    letters = {c.letter for c in game.edition.cards}
    known = knowledge(game.edition, game.players, seed, game.decisions)
    tokens = {client.seat: client.token for client in clients}
    checked = 0
    for client in clients:
        others = [t for s, t in tokens.items() if s != client.seat]
        for raw in client.frames:
            assert str(seed) not in raw
            assert not any(token in raw for token in others)
            message = json.loads(raw)
            assert not {"seed", "decisions", "hands", "deck", "rng"} & set(json.dumps(message).split('"')[1::2])
            if message["type"] != "state" or message["view"]["phase"] == "over":
                continue
            view = message["view"]
            now = known[(client.seat, view["round"], view["phase"], len(view["hand"]))]
            shown = {k: v for k, v in view.items() if k not in ("history", "sheet")}
            assert card_letters(shown, letters, set()) <= now, (view["round"], view["phase"], len(view["hand"]))
            for event in message["events"]:
                if event.get("round") == view["round"]:
                    assert card_letters(event, letters, set()) <= now, event
            checked += 1
    assert checked > 30 * len(clients)


def test_a_table_of_an_edition_file_sent_by_the_host_with_only_bots_plays_itself(server):
    code = host(
        server,
        str(ROOT / "editions" / "variants" / "australia-five-rounds.yaml"),
        "--players",
        "2",
        "--bots",
        "2",
        "--seed",
        "8",
    )
    for _ in range(200):
        game = stored_game(server.db, code)
        if game.over:
            break
        time.sleep(0.05)
    assert game.edition.id == "australia-five-rounds" and len(game.record()["rounds"]) == 5
    offline = play(
        Game(game.edition, ["Bot 1", "Bot 2"], 8), [make_bot("greedy", game.edition, agent_seed(8, s)) for s in (0, 1)]
    )
    assert game.scores.sheet() == offline.scores.sheet()


def test_boom_join_as_a_human_plays_through_the_terminal_ui(server, australia):
    code = host(server, "australia", "--players", "2", "--bots", "1", "--seed", "6")
    letters = [c.letter for c in australia.cards]
    typed = ("\n".join(letters + ["none"]) + "\n") * 40  # every prompt is re-asked until an answer fits
    result = CliRunner().invoke(main, ["join", server.url, code, "--name", "Eve"], input=typed)
    assert result.exit_code == 0, result.output[-2000:]
    assert "Eve sits at seat 1 of table" in result.output and "Type a letter" in result.output
    assert "Final score sheet" in result.output
    assert [f"Round {n} of 4" in result.output for n in (1, 2, 3, 4)] == [True] * 4
    lines = iter(typed.splitlines())

    class Typist:  # reads the same lines as the terminal UI did: a card letter it holds, or "none"
        def decide(self, view, decision):
            for line in lines:
                if (
                    decision.kind == "choice"
                    and line == "none"
                    or decision.kind != "choice"
                    and line in decision.options
                ):
                    return None if line == "none" else line

    offline = play(Game(australia, ["Eve", "Bot 1"], 6), [Typist(), make_bot("greedy", australia, agent_seed(6, 1))])
    assert stored_game(server.db, code).scores.sheet() == offline.scores.sheet()


def test_the_network_commands_fail_with_one_clear_line(server, tmp_path):
    runner = CliRunner()
    missing = runner.invoke(main, ["host", server.url, "editions/nothere.yaml", "--players", "2"])
    assert missing.exit_code == 2 and "no edition file editions/nothere.yaml" in missing.output
    unknown = runner.invoke(main, ["host", server.url, "atlantis", "--players", "2"])
    assert unknown.exit_code == 1 and unknown.output.startswith("error: the server refused: unknown edition 'atlantis'")
    too_many = runner.invoke(main, ["host", server.url, "australia", "--players", "5"])
    assert too_many.exit_code == 1
    assert (
        too_many.output == "error: the server refused: Boomerang: Australia is for 2 to 4 players, "
        "with at most that many bots (bad_players)\n"
    )
    nobody = runner.invoke(main, ["join", "ws://127.0.0.1:9", "ABCDEF", "--name", "Ana"])
    assert nobody.exit_code == 1 and nobody.output.startswith("error: cannot reach the server at ws://127.0.0.1:9")
    no_db = runner.invoke(main, ["export", "--db", str(tmp_path / "none.sqlite"), "ABCDEF"])
    assert no_db.exit_code == 2
    assert f"Invalid value for '--db': no database '{tmp_path / 'none.sqlite'}'" in no_db.output
    running = host(server, "australia", "--players", "2")
    unfinished = runner.invoke(main, ["export", "--db", str(server.db), running])
    assert (
        unfinished.output == f"error: the game at table {running} is not finished; only a finished game is exported\n"
    )


def test_a_human_who_leaves_is_told_how_to_come_back(server):
    code = host(server, "australia", "--players", "2", "--bots", "1", "--seed", "6")
    left = CliRunner().invoke(main, ["join", server.url, code, "--name", "Eve"], input="")
    assert left.exit_code == 130
    token = left.output.split("--token ")[1].split()[0]
    assert f"You left table {code}; a bot plays your seat after the server's timeout. Come back with: " in left.output
    back = CliRunner().invoke(
        main, ["join", server.url, code, "--name", "Eve", "--token", token, "--bot", "random", "-q"]
    )
    assert back.exit_code == 0 and "Winner" in back.output


def test_boom_join_checks_the_code_and_the_name_before_connecting():
    runner = CliRunner()
    bad_code = runner.invoke(main, ["join", "ws://127.0.0.1:9", "AB-1", "--name", "Ana"])
    assert bad_code.exit_code == 2 and "'AB-1' is not a table code" in bad_code.output
    bad_name = runner.invoke(main, ["join", "ws://127.0.0.1:9", "ABCDEF", "--name", "x" * 25])
    assert bad_name.exit_code == 2 and "a name is 1 to 24 printable characters" in bad_name.output


def test_boom_host_prints_the_browser_link_beside_the_join_command(server):
    result = CliRunner().invoke(main, ["host", server.url, "australia", "--players", "2"])
    assert result.exit_code == 0, result.output
    first, browser, terminal = result.output.splitlines()
    code = first.split()[1]
    assert first == f"table {code} at {server.url}: 2 seats to fill"
    assert browser == f"  in a browser: http://127.0.0.1:{server.port}/t/{code}"
    assert terminal == f"  at a terminal: boom join {server.url} {code} --name NAME"


def test_boom_serve_on_every_interface_prints_the_machines_addresses_not_0_0_0_0(tmp_path):
    import subprocess
    import sys

    from rulesengine.net.listening import lan_addresses, url_host

    process = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--host", "0.0.0.0", "--port", "0", "--db", str(tmp_path / "b")],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        addresses = lan_addresses() or ["127.0.0.1"]
        lines = [process.stdout.readline() for _ in range(len(addresses) + 2)]
    finally:
        process.terminate()
        process.wait()
    text = "".join(lines)
    assert "0.0.0.0" not in text
    port = text.split(":", 3)[2].split()[0]
    for address in addresses:
        assert f"play in a browser at http://{url_host(address)}:{port}/" in text
    assert "the connection is not encrypted" in text
