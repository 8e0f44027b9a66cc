"""Local search slotting, the warehouse example's Python algorithm (standard library only).

Reads the Scenarist contract on stdin ({dataset: {tables}, params, data_params, seed}), writes a
slotting result on stdout, reports progress as JSON lines on stderr. Starts from today's slots (SKUs
without one take the closest free location), then tries seeded random moves and swaps, keeping each
one that cuts the daily walk: sum of daily picks x 2 x Manhattan distance depot -> location.
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

    slot, unassigned = {}, []
    for sku in sorted(skus, key=lambda s: not s["current_location"]):
        name, current = sku["sku"], sku["current_location"]
        if current in room and room[current] > 0:
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
            if picks[a] * (distance[target] - distance[slot[a]]) < 0:
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
            # Swapping helps when the faster mover gets the closer location.
            if (picks[a] - picks[b]) * (distance[lb] - distance[la]) < 0:
                slot[a], slot[b] = lb, la

    json.dump(
        {
            "depot": depot,
            "assignments": [{"sku": name, "location": loc} for name, loc in slot.items()],
            "unassigned": unassigned,
        },
        sys.stdout,
    )


main()
