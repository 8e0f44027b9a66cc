"""Local search slotting, the warehouse example's Python algorithm (standard library only).

Reads the Scenarist contract on stdin ({dataset: {tables}, params, data_params, seed, previous_plan}),
writes a slotting result on stdout, reports progress as JSON lines on stderr. Starts from the published
plan when the service hands one (previous_plan, a warm start), else from today's slots (SKUs without
one take the closest free location), then tries seeded random moves and swaps, keeping each one that
cuts the daily walk (sum of daily picks x 2 x Manhattan distance depot -> location) by more than
churn_weight metres per SKU it moves away from the plan.
"""
import json
import random
import sys


def rows_of(table):
    """The rows of a contract table as dicts keyed by column name."""
    names = [column["name"] for column in table["columns"]]
    return [dict(zip(names, row)) for row in table["rows"]]


def report(progress, message, objective=None):
    line = {"progress": progress, "message": message}
    if objective is not None:
        line["objective"] = objective
    print(json.dumps(line), file=sys.stderr, flush=True)


def main():
    request = json.load(sys.stdin)
    tables = request["dataset"]["tables"]
    params, data_params = request["params"], request["data_params"]
    rng = random.Random(request["seed"])
    depot = {"x": params["depot_x"], "y": params["depot_y"]}

    locations = [row for row in rows_of(tables["warehouse_layout"]) if row["capacity"] > 0]
    zone_of = {loc["location"]: loc["zone"] for loc in locations}
    room = {loc["location"]: int(loc["capacity"]) for loc in locations}
    distance = {loc["location"]: abs(loc["x"] - depot["x"]) + abs(loc["y"] - depot["y"]) for loc in locations}
    by_distance = sorted(room, key=lambda name: distance[name])

    category, min_picks = data_params["category"], data_params["min_daily_picks"]
    skus = [
        row for row in rows_of(tables["sku_data"])
        if (category == "" or row["category"] == category) and row["daily_picks"] >= min_picks
    ]
    picks = {sku["sku"]: sku["daily_picks"] for sku in skus}
    # With respect_zones a SKU stays in the zone of its current location (one without may go anywhere).
    home_zone = {
        sku["sku"]: zone_of.get(sku["current_location"]) if params["respect_zones"] else None
        for sku in skus
    }

    # A warm start: where the published plan put each SKU (a SKU it did not place has no plan to keep).
    previous = request.get("previous_plan")
    planned = {row["sku"]: row["location"] for row in previous["result"]["assignments"]} if previous else {}
    churn_weight = params.get("churn_weight", 0)

    def changes(name, loc):
        """1 when SKU `name` at `loc` leaves where the plan put it, else 0."""
        return 1 if name in planned and planned[name] != loc else 0

    slot, unassigned = {}, []
    for sku in sorted(skus, key=lambda s: (s["sku"] not in planned, not s["current_location"])):
        name, current = sku["sku"], sku["current_location"]
        wanted = planned.get(name)
        if wanted in room and room[wanted] > 0 and home_zone[name] in (None, zone_of[wanted]):
            chosen = wanted
        elif current in room and room[current] > 0:
            chosen = current
        else:
            chosen = next((loc for loc in by_distance if room[loc] > 0 and home_zone[name] in (None, zone_of[loc])), None)
        if chosen is None:
            unassigned.append(name)
            continue
        slot[name] = chosen
        room[chosen] -= 1
    print(f"start: {len(slot)} SKUs slotted, {len(unassigned)} without a location", file=sys.stderr)

    def walk():
        return sum(picks[name] * 2 * distance[loc] for name, loc in slot.items())

    slotted = list(slot)
    free = [loc for loc in by_distance if room[loc] > 0]
    iterations = params["iterations"]
    step = max(1, iterations // 20)
    for i in range(iterations):
        if i % step == 0:
            report(i / iterations, f"iteration {i} of {iterations}", walk())
        if not slotted:
            break
        a = rng.choice(slotted)
        if free and rng.random() < 0.5:
            target = rng.choice(free)
            if home_zone[a] not in (None, zone_of[target]):
                continue
            gain = 2 * picks[a] * (distance[target] - distance[slot[a]])
            if gain + churn_weight * (changes(a, target) - changes(a, slot[a])) < 0:
                room[slot[a]] += 1
                room[target] -= 1
                if room[slot[a]] == 1:
                    free.append(slot[a])
                if room[target] == 0:
                    free.remove(target)
                slot[a] = target
        else:
            b = rng.choice(slotted)
            la, lb = slot[a], slot[b]
            if home_zone[a] not in (None, zone_of[lb]) or home_zone[b] not in (None, zone_of[la]):
                continue
            # Swapping helps when the faster mover gets the closer location, by more than the churn it makes.
            gain = 2 * (picks[a] - picks[b]) * (distance[lb] - distance[la])
            churn = changes(a, lb) - changes(a, la) + changes(b, la) - changes(b, lb)
            if gain + churn_weight * churn < 0:
                slot[a], slot[b] = lb, la

    layout = rows_of(tables["warehouse_layout"])
    json.dump(
        {
            "depot": depot,
            "assignments": [{"sku": name, "location": loc} for name, loc in slot.items()],
            "unassigned": unassigned,
            "$explanation": explanation(slot, skus, layout, distance),
        },
        sys.stdout,
    )


def explanation(slot, skus, layout, distance):
    """Why this plan (docs/external-algorithms.md, "Explanations"): the terms of Travel Distance by zone
    and of Reslot Moves by category, and a hard capacity violation per location holding too many SKUs."""
    by_id = {sku["sku"]: sku for sku in skus}
    zone_of = {loc["location"]: loc["zone"] for loc in layout}
    travel, moves, held = {}, {}, {}
    for name, loc in slot.items():
        sku = by_id[name]
        zone = zone_of[loc]
        travel[zone] = travel.get(zone, 0) + sku["daily_picks"] * 2 * distance[loc]
        if sku["current_location"] != loc:
            moves[sku["category"]] = moves.get(sku["category"], 0) + 1
        held.setdefault(loc, []).append(name)
    violations = []
    for loc in layout:
        names = held.get(loc["location"], [])
        room = max(0, int(loc["capacity"]))
        if len(names) > room:
            violations.append({
                "constraint": "capacity",
                "severity": "hard",
                "amount": len(names) - room,
                "rows": [{"table": "warehouse_layout", "key": loc["location"]}]
                + [{"table": "sku_data", "key": name} for name in names],
                "message": f"{loc['location']} (zone {loc['zone']}) holds {len(names)} SKUs but has room for {room}",
            })
    return {"terms": {"Travel Distance": travel, "Reslot Moves": moves}, "violations": violations}


main()
