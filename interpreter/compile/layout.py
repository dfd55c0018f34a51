"""A checked game's declarations laid out as the plan's tables, for a number of seats: piles,
cards, pieces, boards and variables become small ints and flat lists (see `engine/plan.py`)."""
from __future__ import annotations


from ..boards import KINDS
from ..boards.base import BoardKind
from ..check.checked import Checked
from ..engine.helpers import board_copier
from ..ir.models import Visibility
from ..engine.plan import Plan
from ..base.limits import MAX_ROUNDS, MAX_STEPS
from ..load.ruleset import Ruleset
from ..lang.types import ANY, BOOL, HELD, INT, SEAT, Owner, Per, holds_card, is_list, is_map


def layout(rs: Ruleset, checked: Checked, n_seats: int) -> Plan:
    g = rs.game
    sym = checked.symbols
    p = Plan(game_id=g.game.id, name=g.game.name, digest=rs.digest, n_seats=n_seats)
    # pieces and boards
    for kind, names in sym.pieces.items():
        ids = []
        for name in names:
            ids.append(p.n_pieces)
            p.piece_names.append(name)
            p.piece_kind.append(kind)
            p.piece_marker.append(bool(g.pieces[kind].marker))
            p.n_pieces += 1
        p.kind_pieces[kind] = ids
    for bname, b in g.boards.items():
        board = KINDS[b.kind](str(bname), len(p.board_names), b, p)
        p.board_names.append(str(bname))
        p.board_kinds.append(board)
        if type(board).redeal_hidden is not BoardKind.redeal_hidden:
            p.hiding_kinds.append(board)
    p.clone_bd = board_copier([k.clone for k in p.board_kinds])
    # piles
    for name, pile in g.piles.items():
        owner = sym.piles.get(str(name)) or Owner(Per.GAME)
        owners: list[int | None]
        if owner.per is Per.GAME:
            owners, labels = [None], [str(name)]
        elif owner.per is Per.SEAT:
            owners = list(range(n_seats))
            labels = [f"{name}(seat {s + 1})" for s in range(n_seats)]
        elif owner.per is Per.PIECE:
            owners = list(range(p.n_pieces))
            labels = [f"{name}({p.piece_names[i]})" for i in range(p.n_pieces)]
        else:
            places = p.board_kinds[p.board_names.index(str(owner.board))].places
            owners = [None] * places
            labels = [f"{name}({i + 1})" for i in range(places)]
        p.pile_base[str(name)] = p.n_piles
        for who, label in zip(owners, labels):
            p.pile_names.append(label)
            p.pile_decl.append(str(name))
            p.pile_visible.append(Visibility(pile.visible))
            p.pile_owner.append(who)
            p.pile_per.append(owner.per)
            p.pile_board.append(owner.board)
            p.n_piles += 1
    # one more pile, which no rule can name: cards a scenario set aside, out of the game (`set_pile`)
    p.aside = p.n_piles
    p.pile_names.append("(set aside)")
    p.pile_decl.append("__aside")
    p.pile_visible.append(Visibility.NOBODY)
    p.pile_owner.append(None)
    p.pile_per.append(Per.GAME)
    p.pile_board.append(None)
    p.n_piles += 1
    p.unseen_piles = frozenset(i for i, vis in enumerate(p.pile_visible) if vis is Visibility.NOBODY)
    p.owned_piles = frozenset(i for i, vis in enumerate(p.pile_visible) if vis is Visibility.OWNER)
    p.secret_piles = tuple(sorted(p.unseen_piles.union(p.owned_piles)))
    p.owned_by_piece = any(p.pile_per[i] is Per.PIECE for i in p.owned_piles)
    p.seat_piles = [0] * n_seats
    p.piece_piles = [0] * p.n_pieces
    for pid, (per, who) in enumerate(zip(p.pile_per, p.pile_owner)):
        if per in HELD and who is not None:
            (p.seat_piles if per is Per.SEAT else p.piece_piles)[who] |= 1 << pid
    for name, pile in g.piles.items():
        if pile.refill_from is not None:
            n = {Per.GAME: 1, Per.SEAT: n_seats, Per.PIECE: p.n_pieces}[Per(str(pile.of))]
            for i in range(n):  # a seat's pile refills from the same seat's piles
                p.refill[p.pile_base[str(name)] + i] = tuple(p.pile_base[str(r)] + i for r in pile.refills())
    # dice
    for name, faces in g.dice.items():
        if str(name) not in sym.dice:
            continue
        if isinstance(faces, dict):
            family = p.die_family[str(name)] = {}
            numbered = sym.dice[str(name)] == INT
            for which, each in faces.items():
                family[int(which) if numbered else str(which)] = len(p.die_faces)
                p.die_faces.append([int(x) for x in each])
                p.die_names.append(f"{name}({int(which)})" if numbered else f'{name}("{which}")')
        else:
            p.die_base[str(name)] = len(p.die_faces)
            p.die_faces.append([int(x) for x in faces])
            p.die_names.append(str(name))
    # cards
    props: dict[str, list] = {k: [] for k in sym.card_props}
    for ti, ct in enumerate(rs.cards):
        p.card_types.append(str(ct.id))
        p.card_names.append(str(ct.name) if ct.name else str(ct.id))
        p.type_props.append(dict(ct.props))
        base = p.pile_base[str(ct.starts_in)]
        if ct.per_piece is not False:
            targets = [base + pc for pc in _selected(p, ct.per_piece)]
        else:
            targets = [base + s for s in range(n_seats)] if ct.per_seat else [base]
        for target in targets:
            for _ in range(ct.count):
                p.card_type.append(ti)
                p.card_start.append(target)
                for k in props:  # a card without a map property has an empty one
                    props[k].append(ct.props.get(k, {} if is_map(sym.card_props[k]) else None))
    p.card_props = props
    p.card_type_names = [p.card_types[t] for t in p.card_type]
    types: dict[int, set[int]] = {}
    for c, at in enumerate(p.card_start):
        types.setdefault(at, set()).add(p.card_type[c])
    p.mixed_starts = frozenset(at for at, ts in types.items()
                               if at in p.unseen_piles and (len(ts) > 1 or sym.card_vars))
    if g.carry is not None:  # checked by the symbols: these exist
        p.carry_seat = [str(x) for x in g.carry.seat]
        p.carry_game = [str(x) for x in g.carry.game]
        p.carry_piles = [str(x) for x in g.carry.piles]
    # state variables
    declared = {Per.GAME: sym.globals, Per.SEAT: sym.seat_vars, Per.PIECE: sym.piece_vars,
                Per.CARD: sym.card_vars}
    for name, var in g.state.items():
        t = declared[Per(var.of)].get(str(name), ANY)   # (its type as the checker read it, once)
        init = var.initial
        if init is None and (is_list(t) or is_map(t)):
            init = [] if is_list(t) else {}
        if init is None and t == INT:
            init = 0
        if init is None and t == BOOL:
            init = False
        per = Per(var.of)
        key = (per, str(name))
        {Per.GAME: p.global_init, Per.SEAT: p.seat_init, Per.PIECE: p.piece_init, Per.CARD: p.card_init}[per][
            str(name)] = init
        p.var_types[key] = t
        p.var_visible[key] = Visibility(var.visible)
    p.piece_init.setdefault("owner", None)
    p.var_types[(Per.PIECE, "owner")] = SEAT
    p.secret_vars = any(v is Visibility.OWNER for (per, _n), v in p.var_visible.items()
                        if per in (Per.SEAT, Per.PIECE))
    p.card_state = [(per, name, t) for (per, name), t in p.var_types.items()
                    if per in (Per.GAME, Per.SEAT, Per.PIECE) and holds_card(t)]
    # seat and piece variables live in one flat list: a variable's values for each seat (or
    # piece) side by side from its offset
    for inits, n in ((p.seat_init, n_seats), (p.piece_init, p.n_pieces), (p.card_init, len(p.card_type))):
        for name, init in inits.items():
            p.var_at[name] = len(p.var_start)
            p.var_start.extend([init] * n)
    p.seat_slots = [[p.var_at[name] + s for name in p.seat_init] for s in range(n_seats)]
    p.piece_slots = [[p.var_at[name] + pc for name in p.piece_init if name != "owner"]
                     for pc in range(p.n_pieces)]
    p.global_init["round"] = 0
    p.global_init["__rounds"] = 0
    # an untrusted ruleset sets its own limits, within the engine's ceilings
    p.max_rounds = min(g.limits.max_rounds, MAX_ROUNDS)
    p.max_steps = min(g.limits.max_steps, MAX_STEPS)
    return p


def _selected(p: Plan, sel: bool | str | list) -> list[int]:
    """The pieces `per_piece` names: every piece (`true`), a kind's, or pieces by name, in the
    order they are declared."""
    if isinstance(sel, bool):
        return list(range(p.n_pieces)) if sel else []
    names = {str(sel)} if isinstance(sel, str) else {str(x) for x in sel}
    return [pc for pc in range(p.n_pieces) if p.piece_names[pc] in names or p.piece_kind[pc] in names]
