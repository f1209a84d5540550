globalThis.__win=[];process.on('exit',()=>{require('fs').writeFileSync(process.env.WIN_OUT||'/tmp/prof/win.json',JSON.stringify(globalThis.__win.map(String)))});
import {createRequire as __cr} from 'module'; const require=__cr(import.meta.url);
// bench/engine.bench.ts
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { constants as perfConstants, PerformanceObserver } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

// src/engine/events.ts
var DEFAULT_MERGE_TOLERANCE_MS = 45 * 6e4;
function normaliseTeamName(name) {
  return name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "");
}
function slug(text2) {
  return text2.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "x";
}
function stamp(ms) {
  return new Date(ms).toISOString().slice(0, 16).replace(/[-:T]/g, "");
}
var EventRegistry = class {
  constructor(toleranceMs = DEFAULT_MERGE_TOLERANCE_MS) {
    this.toleranceMs = toleranceMs;
  }
  toleranceMs;
  bySourceId = /* @__PURE__ */ new Map();
  byTeams = /* @__PURE__ */ new Map();
  ids = /* @__PURE__ */ new Set();
  lookup(sourceEventId) {
    return this.bySourceId.get(sourceEventId);
  }
  /** The canonical id for a source id, merging with a known fixture when teams and start time match. */
  resolve(sourceEventId, league, home, away, startsAt) {
    const known = this.bySourceId.get(sourceEventId);
    if (known) return known;
    const teamsKey = `${league}|${normaliseTeamName(home.name)}|${normaliseTeamName(away.name)}`;
    const fixtures = this.byTeams.get(teamsKey) ?? [];
    let best;
    for (const fixture of fixtures) {
      const gap = Math.abs(fixture.startsAt - startsAt);
      if (gap <= this.toleranceMs && (!best || gap < Math.abs(best.startsAt - startsAt))) best = fixture;
    }
    if (!best) {
      const base = `${league}-${slug(away.abbreviation)}-${slug(home.abbreviation)}-${stamp(startsAt)}`;
      let id = base;
      for (let n2 = 2; this.ids.has(id); n2 += 1) id = `${base}-${n2}`;
      best = { id, startsAt };
      this.ids.add(id);
      fixtures.push(best);
      this.byTeams.set(teamsKey, fixtures);
    }
    this.bySourceId.set(sourceEventId, best.id);
    return best.id;
  }
  /** Forgets a finished fixture and every source id that pointed at it. */
  forget(canonicalId) {
    for (const [sourceId, id] of this.bySourceId) if (id === canonicalId) this.bySourceId.delete(sourceId);
    for (const [key, fixtures] of this.byTeams) {
      const kept = fixtures.filter((fixture) => fixture.id !== canonicalId);
      if (kept.length === 0) this.byTeams.delete(key);
      else if (kept.length !== fixtures.length) this.byTeams.set(key, kept);
    }
    this.ids.delete(canonicalId);
  }
};

// src/engine/found-at.ts
var FoundAt = class {
  /** Keys of the last snapshot's positive arbs → their found_at. */
  since = /* @__PURE__ */ new Map();
  /** A scanner arb → the published copy carrying its found_at. */
  copies = /* @__PURE__ */ new WeakMap();
  /**
   * Replaces each of a snapshot's arbs (best first, `keys[i]` the engine's key of `arbs[i]`) with the object to
   * publish, carrying its found_at when its edge is positive. `nowSeconds` is the snapshot's `generated_at`.
   */
  stamp(arbs, keys, nowSeconds) {
    const next = /* @__PURE__ */ new Map();
    for (let i = 0; i < arbs.length; i += 1) {
      const arb = arbs[i];
      if (!(arb.edge_pct > 0)) continue;
      const key = keys[i];
      const found = this.since.get(key) ?? nowSeconds;
      next.set(key, found);
      let copy = this.copies.get(arb);
      if (copy?.found_at !== found) {
        copy = { ...arb, found_at: found };
        this.copies.set(arb, copy);
      }
      arbs[i] = copy;
    }
    this.since = next;
  }
  /** How many arb keys currently hold a found_at. */
  get size() {
    return this.since.size;
  }
};

// src/domain/arbitrage.ts
var DEFAULT_FLOOR_PCT = -1;
var DECIMAL_PLACES = 4;
var EDGE_PLACES = 3;
var PROB_PLACES = 6;
function floorTo(value, places2) {
  const factor = 10 ** places2;
  return Math.floor(value * factor + 1e-9) / factor;
}
var DECIMAL_FACTOR = 10 ** DECIMAL_PLACES;
function canonicalDecimal(decimal) {
  return Math.floor(decimal * DECIMAL_FACTOR + 1e-9) / DECIMAL_FACTOR;
}
function bookSum(decimals) {
  let sum2 = 0;
  for (const decimal of decimals) sum2 += 1 / decimal;
  return sum2;
}
function edgePct(decimals) {
  return (1 / bookSum(decimals) - 1) * 100;
}
function publishedEdge(decimals) {
  return floorTo(edgePct(decimals), EDGE_PLACES) + 0;
}
var DEFAULT_COMBINATION_OPTIONS = {
  floorPct: DEFAULT_FLOOR_PCT,
  maxPerMarket: 3,
  topPerOutcome: 6
};

// src/domain/markets.ts
var LEAGUES = {
  nba: { key: "nba", sport: "basketball", name: "NBA", hasDraws: false },
  ncaab: { key: "ncaab", sport: "basketball", name: "NCAAB", hasDraws: false },
  nfl: { key: "nfl", sport: "football", name: "NFL", hasDraws: false },
  mlb: { key: "mlb", sport: "baseball", name: "MLB", hasDraws: false },
  nhl: { key: "nhl", sport: "hockey", name: "NHL", hasDraws: false },
  epl: { key: "epl", sport: "soccer", name: "Premier League", hasDraws: true },
  mls: { key: "mls", sport: "soccer", name: "MLS", hasDraws: true }
};
function isLeagueKey(value) {
  return Object.prototype.hasOwnProperty.call(LEAGUES, value);
}
var GAME_MARKET_TYPES = ["moneyline", "spread", "total", "1x2"];
var MARKET_TYPES = [...GAME_MARKET_TYPES, "prop"];
var PERIODS = ["full", "h1", "h2", "q1", "q2", "q3", "q4", "p1", "p2", "p3", "f5"];
var PERIOD_LABELS = {
  full: "",
  h1: "1st Half",
  h2: "2nd Half",
  q1: "1st Quarter",
  q2: "2nd Quarter",
  q3: "3rd Quarter",
  q4: "4th Quarter",
  p1: "1st Period",
  p2: "2nd Period",
  p3: "3rd Period",
  f5: "First 5 Innings"
};
function outcomesOf(type) {
  switch (type) {
    case "moneyline":
    case "spread":
      return ["away", "home"];
    case "total":
      return ["over", "under"];
    case "1x2":
      return ["home", "draw", "away"];
  }
}
function isValidPoint(type, point) {
  if (type === "moneyline" || type === "1x2") return point === null;
  if (point === null || !Number.isFinite(point) || Math.abs(point) > 500) return false;
  if (type === "total" && point <= 0) return false;
  return Number.isInteger(point * 2);
}
function isMarketAllowed(league, spec) {
  if (spec.type === "1x2") return league.hasDraws;
  if (spec.type === "moneyline") return !league.hasDraws;
  return true;
}
function formatPoint(point) {
  if (point === 0) return "PK";
  const text2 = Number.isInteger(point) ? point.toFixed(0) : String(point);
  return point > 0 ? `+${text2}` : text2;
}
function marketKey(eventId, spec) {
  if (spec.type === "prop")
    return `${eventId}|prop|${spec.stat}|${spec.period}|${encodeURIComponent(spec.playerId)}|${spec.point ?? ""}`;
  return `${eventId}|${spec.type}|${spec.period}|${spec.point ?? ""}`;
}
function marketLabel(spec) {
  let base;
  switch (spec.type) {
    case "moneyline":
      base = "Moneyline";
      break;
    case "1x2":
      base = "1X2";
      break;
    case "total":
      base = `Total ${spec.point}`;
      break;
    case "spread": {
      const home = spec.point ?? 0;
      base = `Spread ${formatPoint(-home)} / ${formatPoint(home)}`;
      break;
    }
  }
  const period = PERIOD_LABELS[spec.period];
  return period ? `${period} ${base}` : base;
}
function selectionName(event, outcome) {
  switch (outcome) {
    case "home":
      return event.home.name;
    case "away":
      return event.away.name;
    case "draw":
      return "Draw";
    case "over":
      return "Over";
    case "under":
      return "Under";
    case "yes":
      return "Yes";
    case "no":
      return "No";
  }
}
function outcomeLabel(event, spec, outcome) {
  const name = selectionName(event, outcome);
  if (spec.type === "spread" && spec.point !== null) {
    return `${name} ${formatPoint(outcome === "home" ? spec.point : -spec.point)}`;
  }
  if (spec.type === "total" && spec.point !== null) return `${name} ${spec.point}`;
  return name;
}
function stableHash(text2) {
  let a = 2166136261;
  let b = 16777619 ^ 1540483477;
  for (let index = 0; index < text2.length; index += 1) {
    const code = text2.charCodeAt(index);
    a = Math.imul(a ^ code, 16777619);
    b = Math.imul(b ^ code, 1540483477) ^ b >>> 15;
  }
  return (a >>> 0).toString(36).padStart(7, "0") + (b >>> 0).toString(36).padStart(7, "0");
}
function arbEventOf(event) {
  return {
    id: event.id,
    teams: { away: { ...event.away }, home: { ...event.home } },
    live: event.live,
    date: new Date(event.startsAt).toISOString(),
    sport: LEAGUES[event.league].sport,
    league: event.league
  };
}
function sideId(eventId, spec, outcome, book) {
  return `${book}-${stableHash(`${marketKey(eventId, spec)}|${outcome}|${book}`)}`;
}

// src/domain/props.ts
var PROP_STAT_KEYS = [
  "player_points",
  "player_rebounds",
  "player_assists",
  "player_threes",
  "player_points_rebounds_assists",
  "player_double_double",
  "player_pass_yds",
  "player_rush_yds",
  "player_reception_yds",
  "player_receptions",
  "player_pass_tds",
  "player_anytime_td",
  "batter_hits",
  "batter_total_bases",
  "pitcher_strikeouts",
  "player_shots_on_goal",
  "player_goal_scorer_anytime",
  "player_shots",
  "player_shots_on_target"
];
function isPropStatKey(value) {
  return PROP_STAT_KEYS.includes(value);
}
var ou = (key, label, periods = ["full"]) => ({
  key,
  label,
  kind: "over_under",
  periods
});
var yn = (key, label) => ({
  key,
  label,
  kind: "yes_no",
  periods: ["full"]
});
var BASKETBALL_FULL = [
  ou("player_points", "Points"),
  ou("player_rebounds", "Rebounds"),
  ou("player_assists", "Assists"),
  ou("player_threes", "Threes Made"),
  ou("player_points_rebounds_assists", "Pts + Reb + Ast"),
  yn("player_double_double", "Double-Double")
];
var SOCCER = [
  ou("player_shots", "Shots"),
  ou("player_shots_on_target", "Shots on Target"),
  yn("player_goal_scorer_anytime", "Anytime Goal")
];
var PROP_CATALOGUE = {
  nba: [
    ou("player_points", "Points", ["full", "q1"]),
    ou("player_rebounds", "Rebounds", ["full", "q1"]),
    ou("player_assists", "Assists", ["full", "q1"]),
    ou("player_threes", "Threes Made"),
    ou("player_points_rebounds_assists", "Pts + Reb + Ast"),
    yn("player_double_double", "Double-Double")
  ],
  ncaab: BASKETBALL_FULL,
  nfl: [
    ou("player_pass_yds", "Passing Yards", ["full", "q1"]),
    ou("player_rush_yds", "Rushing Yards"),
    ou("player_reception_yds", "Receiving Yards"),
    ou("player_receptions", "Receptions"),
    ou("player_pass_tds", "Passing TDs"),
    yn("player_anytime_td", "Anytime TD")
  ],
  mlb: [
    ou("batter_hits", "Hits"),
    ou("batter_total_bases", "Total Bases"),
    ou("pitcher_strikeouts", "Strikeouts")
  ],
  nhl: [
    ou("player_shots_on_goal", "Shots on Goal"),
    ou("player_points", "Points"),
    yn("player_goal_scorer_anytime", "Anytime Goal")
  ],
  epl: SOCCER,
  mls: SOCCER
};
function propStat(league, stat) {
  return PROP_CATALOGUE[league].find((def) => def.key === stat);
}
function propOutcomes(kind) {
  return kind === "over_under" ? ["over", "under"] : ["yes", "no"];
}
function statLabel(spec, def) {
  const period = PERIOD_LABELS[spec.period];
  const label = def?.label ?? spec.stat;
  return period ? `${period} ${label}` : label;
}
function anyDef(stat) {
  for (const defs of Object.values(PROP_CATALOGUE)) {
    const def = defs.find((candidate) => candidate.key === stat);
    if (def) return def;
  }
  return void 0;
}
function propMarketLabel(player, spec) {
  const def = anyDef(spec.stat);
  const base = propStatLabel(player, spec);
  return def?.kind === "yes_no" || spec.point === null ? base : `${base} Over/Under ${spec.point}`;
}
function propStatLabel(player, spec) {
  return `${player.name} ${statLabel(spec, anyDef(spec.stat))}`;
}
function propOutcomeLabel(player, spec, outcome) {
  const base = `${player.name} ${statLabel(spec, anyDef(spec.stat))}`;
  switch (outcome) {
    case "over":
      return `${base} Over ${spec.point}`;
    case "under":
      return `${base} Under ${spec.point}`;
    case "yes":
      return `${base} \u2014 Yes`;
    case "no":
      return `${base} \u2014 No`;
  }
}
var MAX_PROP_POINT = 999.5;
function propSpecProblem(league, spec) {
  if (!isPropStatKey(spec.stat)) return "unknown_stat";
  const def = propStat(league, spec.stat);
  if (!def) return "stat_not_in_league";
  if (!def.periods.includes(spec.period)) return "period_not_offered";
  if (spec.playerId.trim() === "") return "missing_player";
  if (def.kind === "yes_no") return spec.point === null ? null : "point_not_allowed";
  if (spec.point === null) return "point_required";
  if (!Number.isFinite(spec.point) || spec.point < 0.5 || spec.point > MAX_PROP_POINT)
    return "point_out_of_range";
  if (!Number.isInteger(spec.point - 0.5)) return "point_not_half_line";
  return null;
}

// src/domain/market-labels.ts
var kindOfStat;
function propKindOf(stat) {
  if (!kindOfStat) {
    kindOfStat = /* @__PURE__ */ new Map();
    for (const defs of Object.values(PROP_CATALOGUE))
      for (const def of defs) kindOfStat.set(def.key, def.kind);
  }
  return kindOfStat.get(stat);
}
function specOutcomes(spec) {
  if (spec.type !== "prop") return outcomesOf(spec.type);
  return propOutcomes(propKindOf(spec.stat) ?? (spec.point === null ? "yes_no" : "over_under"));
}
function named(player, spec) {
  return player ?? { name: spec.playerId };
}
function specLabel(spec, player) {
  return spec.type === "prop" ? propMarketLabel(named(player, spec), spec) : marketLabel(spec);
}
function specOutcomeLabel(event, spec, outcome, player) {
  if (spec.type !== "prop") return outcomeLabel(event, spec, outcome);
  return propOutcomeLabel(named(player, spec), spec, outcome);
}
function specSelectionName(event, spec, outcome, player) {
  const side = selectionName(event, outcome);
  return spec.type === "prop" ? `${named(player, spec).name} ${side}` : side;
}

// src/domain/odds.ts
function isValidDecimal(value) {
  return Number.isFinite(value) && value > 1;
}
function isValidAmerican(value) {
  return Number.isFinite(value) && (value >= 100 || value <= -100);
}
function toDecimalOdds(value) {
  if (!isValidDecimal(value)) throw new RangeError(`Decimal odds must be finite and > 1, got ${value}`);
  return value;
}
function americanToDecimal(american) {
  return american > 0 ? 1 + american / 100 : 1 + 100 / Math.abs(american);
}
function decimalToAmerican(decimal) {
  return decimal >= 2 ? (decimal - 1) * 100 : -100 / (decimal - 1);
}
function formatAmerican(american) {
  const rounded = Math.round(american);
  return rounded > 0 ? `+${rounded}` : `${rounded}`;
}
function formatAmericanAtMost(decimal) {
  const points = Math.floor(decimalToAmerican(decimal) + 1e-9);
  return points > 0 ? `+${points}` : `${points}`;
}
function roundTo(value, places2) {
  const factor = 10 ** places2;
  return Math.round((value + Number.EPSILON) * factor) / factor;
}

// src/domain/sportsbooks.ts
var SPORTSBOOK_KEYS = [
  "ballybet",
  "betmgm",
  "betonline",
  "betparx",
  "betrivers",
  "bodog",
  "circa",
  "espn",
  "fanatics",
  "fliff",
  "fanduel",
  "draftkings",
  "caesars",
  "hardrock",
  "hardrock_in"
];
var states = (list) => list.toLowerCase().split(/\s+/).filter(Boolean).sort();
function withDefault(config) {
  return config.states ? { ...config, defaultState: config.states[0] } : config;
}
var SPORTSBOOKS = {
  ballybet: withDefault({
    key: "ballybet",
    displayName: "Bally Bet",
    licence: "us-licensed",
    letter: "B",
    background: "#c8102e",
    text: "#ffffff",
    betText: "Bet at Bally",
    hosts: ["*.ballybet.com", "ballybet.com"],
    appSchemes: []
  }),
  betmgm: withDefault({
    key: "betmgm",
    displayName: "BetMGM",
    licence: "us-licensed",
    letter: "M",
    background: "#1c1c1c",
    text: "#dbc285",
    betText: "Bet at BetMGM",
    hosts: ["sports.*.betmgm.com", "*.betmgm.com", "sports.on.betmgm.ca"],
    appSchemes: ["playmgmsportswrp"],
    states: states("AZ CO DC IA IL IN KS KY LA MA MD MI NC NJ NV NY OH PA TN VA WV WY ON"),
    stateRewrite: { kind: "second-host-label", overrides: { on: "sports.on.betmgm.ca" } }
  }),
  betonline: withDefault({
    key: "betonline",
    displayName: "BetOnline",
    licence: "offshore",
    letter: "O",
    background: "#0e2a47",
    text: "#ffffff",
    betText: "Bet at BetOnline",
    hosts: ["*.betonline.ag", "betonline.ag"],
    appSchemes: []
  }),
  betparx: withDefault({
    key: "betparx",
    displayName: "betPARX",
    licence: "us-licensed",
    letter: "P",
    background: "#0a3d91",
    text: "#ffffff",
    betText: "Bet at betPARX",
    hosts: ["*.betparx.com", "www.playgunlake.com"],
    appSchemes: [],
    states: states("MD MI NJ OH PA"),
    stateRewrite: { kind: "host-label", overrides: { mi: "www.playgunlake.com" } }
  }),
  betrivers: withDefault({
    key: "betrivers",
    displayName: "BetRivers",
    licence: "us-licensed",
    letter: "R",
    background: "#13294b",
    text: "#f9c22e",
    betText: "Bet at BetRivers",
    hosts: ["*.betrivers.com", "on.betrivers.ca"],
    appSchemes: [],
    states: states("AZ CO DE IA IL IN LA MD MI NJ NY OH PA VA WV ON"),
    stateRewrite: { kind: "host-label", overrides: { on: "on.betrivers.ca" } }
  }),
  bodog: withDefault({
    key: "bodog",
    displayName: "Bovada",
    licence: "offshore",
    letter: "B",
    background: "#b3001b",
    text: "#ffffff",
    betText: "Bet at Bovada",
    hosts: ["www.bovada.lv", "www.bodog.eu"],
    appSchemes: [],
    hostRewrite: { from: ["www.bodog.eu", "bodog.eu"], to: "www.bovada.lv" }
  }),
  circa: withDefault({
    key: "circa",
    displayName: "Circa",
    licence: "us-licensed",
    letter: "C",
    background: "#000000",
    text: "#ffffff",
    betText: "Bet at Circa",
    hosts: ["*.circasports.com", "circasports.com"],
    appSchemes: []
  }),
  espn: withDefault({
    key: "espn",
    displayName: "ESPN BET",
    licence: "us-licensed",
    letter: "E",
    background: "#c8102e",
    text: "#ffffff",
    betText: "Bet at ESPN BET",
    hosts: ["espnbet.com", "*.espnbet.com"],
    appSchemes: []
  }),
  fanatics: withDefault({
    key: "fanatics",
    displayName: "Fanatics",
    licence: "us-licensed",
    letter: "F",
    background: "#003da5",
    text: "#ffffff",
    betText: "Bet at Fanatics",
    hosts: ["sportsbook.fanatics.com", "*.fanatics.com"],
    appSchemes: []
  }),
  fliff: withDefault({
    key: "fliff",
    displayName: "Fliff",
    licence: "sweepstakes",
    letter: "F",
    background: "#5b21b6",
    text: "#ffffff",
    betText: "Bet at Fliff",
    hosts: ["*.getfliff.com", "getfliff.com"],
    appSchemes: []
  }),
  fanduel: withDefault({
    key: "fanduel",
    displayName: "FanDuel",
    licence: "us-licensed",
    letter: "F",
    background: "#1167c9",
    text: "#ffffff",
    betText: "Bet at FanDuel",
    hosts: ["*.sportsbook.fanduel.com", "sportsbook.fanduel.com", "on.sportsbook.fanduel.ca"],
    appSchemes: ["fanduelsportsbook"],
    states: states("AZ CO CT IA IL IN KS KY LA MA MD MI NC NJ NY OH PA TN VA VT WV WY ON"),
    stateRewrite: { kind: "host-label", overrides: { on: "on.sportsbook.fanduel.ca" } }
  }),
  draftkings: withDefault({
    key: "draftkings",
    displayName: "DraftKings",
    licence: "us-licensed",
    letter: "D",
    background: "#0b5d1e",
    text: "#ffffff",
    betText: "Bet at DraftKings",
    hosts: ["sportsbook.draftkings.com"],
    appSchemes: ["dksb"]
  }),
  caesars: withDefault({
    key: "caesars",
    displayName: "Caesars",
    licence: "us-licensed",
    letter: "C",
    background: "#0f3d33",
    text: "#e7c77e",
    betText: "Bet at Caesars",
    hosts: ["sportsbook.caesars.com"],
    appSchemes: [],
    states: states("AZ CO DC IA IL IN KS KY LA MA MD ME MI NC NJ NV NY OH PA TN VA WV WY ON"),
    stateRewrite: { kind: "path-segment" }
  }),
  hardrock: withDefault({
    key: "hardrock",
    displayName: "Hard Rock",
    licence: "us-licensed",
    letter: "H",
    background: "#4b2a7b",
    text: "#ffffff",
    betText: "Bet at Hard Rock",
    hosts: ["app.hardrock.bet", "*.hardrock.bet"],
    appSchemes: []
  }),
  hardrock_in: withDefault({
    key: "hardrock_in",
    displayName: "Hard Rock Indiana",
    licence: "us-licensed",
    letter: "H",
    background: "#3b1f63",
    text: "#ffffff",
    betText: "Bet at Hard Rock IN",
    hosts: ["in.hardrock.bet", "*.hardrock.bet"],
    appSchemes: []
  })
};
var HOME_PAGES = {
  ballybet: "https://play.ballybet.com/sports",
  betmgm: "https://sports.{state}.betmgm.com/en/sports",
  betonline: "https://www.betonline.ag/sportsbook",
  betparx: "https://{state}.betparx.com/",
  betrivers: "https://{state}.betrivers.com/",
  bodog: "https://www.bovada.lv/sports",
  circa: "https://www.circasports.com/",
  espn: "https://espnbet.com/",
  fanatics: "https://sportsbook.fanatics.com/",
  fliff: "https://www.getfliff.com/",
  fanduel: "https://{state}.sportsbook.fanduel.com/",
  draftkings: "https://sportsbook.draftkings.com/",
  caesars: "https://sportsbook.caesars.com/us/{state}/bet",
  hardrock: "https://app.hardrock.bet/",
  hardrock_in: "https://in.hardrock.bet/"
};
function homePage(book) {
  return HOME_PAGES[book].replace("{state}", SPORTSBOOKS[book].defaultState ?? "");
}
function isSportsbookKey(value) {
  return Object.prototype.hasOwnProperty.call(SPORTSBOOKS, value);
}
function getSportsbook(key) {
  return isSportsbookKey(key) ? SPORTSBOOKS[key] : void 0;
}
function hostMatches(host, pattern) {
  if (!pattern.includes("*")) return host === pattern;
  const hostLabels = host.split(".");
  const patternLabels = pattern.split(".");
  return hostLabels.length === patternLabels.length && patternLabels.every((label, i) => label === "*" ? hostLabels[i] !== "" : label === hostLabels[i]);
}
function isBookHost(book, host) {
  const lower = host.toLowerCase();
  return book.hosts.some((pattern) => hostMatches(lower, pattern));
}
function isAllowedLink(book, link, kind) {
  if (typeof link !== "string" || link.length === 0 || link.length > 2048) return false;
  if (/[{}]|%7b|%7d/i.test(link)) return false;
  if (/[\s\u0000-\u001f]/.test(link)) return false;
  let url;
  try {
    url = new URL(link);
  } catch {
    return false;
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (scheme === "https") return url.username === "" && url.password === "" && isBookHost(book, url.hostname);
  return kind === "mobile" && book.appSchemes.includes(scheme);
}

// src/domain/player-matching.ts
var SUFFIXES = /* @__PURE__ */ new Set(["jr", "sr", "ii", "iii", "iv", "v"]);
var FOLDED = {
  \u00F8: "o",
  \u0142: "l",
  \u0111: "d",
  \u00F0: "d",
  \u00FE: "th",
  \u00DF: "ss",
  \u00E6: "ae",
  \u0153: "oe",
  \u0131: "i"
};
function normalizePlayerName(name) {
  const folded = name.normalize("NFD").replace(new RegExp("\\p{M}+", "gu"), "").toLowerCase().replace(/[øłđðþßæœı]/g, (letter) => FOLDED[letter] ?? letter).replace(/['’‘`´.]/g, "").replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  if (folded === "") return "";
  const joined = [];
  let inRun = false;
  for (const token of folded.split(" ")) {
    if (token.length === 1 && inRun) {
      joined[joined.length - 1] += token;
    } else {
      joined.push(token);
      inRun = token.length === 1;
    }
  }
  while (joined.length > 1 && SUFFIXES.has(joined[joined.length - 1])) joined.pop();
  const out = [];
  for (let index = 0; index < joined.length; index += 1) {
    const token = joined[index];
    const next = joined[index + 1];
    if (index > 0 && (token === "mc" || token === "mac") && next !== void 0) {
      out.push(token + next);
      index += 1;
    } else {
      out.push(token);
    }
  }
  return out.join(" ");
}
function surnameOf(normalised2) {
  const tokens = normalised2.split(" ");
  return tokens[tokens.length - 1] ?? "";
}
function resolveTeam(team2, roster) {
  if (team2 === "home" && roster.homeTeamId !== void 0) return roster.homeTeamId;
  if (team2 === "away" && roster.awayTeamId !== void 0) return roster.awayTeamId;
  return team2;
}
function indexRoster(roster) {
  const byId = /* @__PURE__ */ new Map();
  const byName2 = /* @__PURE__ */ new Map();
  const bySurname = /* @__PURE__ */ new Map();
  for (const player of roster.players) {
    byId.set(player.id, player);
    const name = normalizePlayerName(player.name);
    if (name === "") continue;
    const push = (map, key) => {
      const list = map.get(key);
      if (list) list.push(player);
      else map.set(key, [player]);
    };
    push(byName2, name);
    push(bySurname, surnameOf(name));
  }
  return { roster, byId, byName: byName2, bySurname };
}
function matchPlayer(index, book) {
  if (book.id) {
    const player2 = index.byId.get(book.id);
    if (player2) return { status: "matched", player: player2, by: "id" };
  }
  const name = normalizePlayerName(book.name);
  if (name === "") return { status: "unmatched", reason: "empty_name" };
  const same = index.byName.get(name) ?? [];
  if (same.length === 0) return { status: "unmatched", reason: "not_found" };
  if (same.length > 1) return { status: "ambiguous", reason: "same_name", candidates: [...same] };
  const sharing = index.bySurname.get(surnameOf(name)) ?? [];
  if (sharing.length > 1) return { status: "ambiguous", reason: "shared_surname", candidates: [...sharing] };
  const player = same[0];
  if (book.team !== null && book.team !== "") {
    if (resolveTeam(book.team, index.roster) !== resolveTeam(player.team, index.roster)) {
      return { status: "unmatched", reason: "team_mismatch" };
    }
  }
  return { status: "matched", player, by: "name" };
}

// src/engine/versions.ts
var NONE = -1;
var DEFAULT_CHUNK_SIZE = 1 << 14;
var MAX_SPARE_CHUNKS = 2;
var SUSPENDED = 1;
var PRICE_PRESENT = 1;
var PRICE_SUSPENDED = 2;
var OWN_LINKS = 2;
var EMPTY = makeChunk(0);
function makeChunk(size) {
  const buffer = new ArrayBuffer(size * (5 * 8 + 4 + 1));
  return {
    receivedAt: new Float64Array(buffer, 0, size),
    updatedAt: new Float64Array(buffer, size * 8, size),
    supersededAt: new Float64Array(buffer, size * 16, size),
    decimal: new Float64Array(buffer, size * 24, size),
    american: new Float64Array(buffer, size * 32, size),
    prevDelta: new Int32Array(buffer, size * 40, size),
    flags: new Uint8Array(buffer, size * 44, size)
  };
}
var VersionRing = class {
  /** `chunkSize` (a power of two) is for tests, to make many chunks of a short run. */
  constructor(windowMs, chunkSize = DEFAULT_CHUNK_SIZE) {
    this.windowMs = windowMs;
    if (!(chunkSize >= 2 && (chunkSize & chunkSize - 1) === 0))
      throw new Error("a chunk holds a power of two entries");
    this.chunkSize = chunkSize;
    this.shift = Math.log2(chunkSize);
    this.headOffset = chunkSize;
  }
  windowMs;
  chunkSize;
  shift;
  /** The live chunks, oldest first: `chunks[k]` holds sequence numbers from `(first + k) * chunkSize`. */
  chunks = [];
  first = 0;
  spare = [];
  ownLinks = /* @__PURE__ */ new Map();
  /** Sequence numbers: the oldest live entry, and the next to be appended. */
  tail = 0;
  head = 0;
  /**
   * Their places in their chunks, kept as they advance: appending and sweeping, once per update, take no division
   * (only a delayed read walking a chain does). The head's chunk is full (`headOffset === chunkSize`) before the first
   * entry and after each `chunkSize`-th.
   */
  headOffset;
  tailOffset = 0;
  /**
   * The head chunk's columns and the tail chunk's two the sweep reads, held on the ring itself: an append or a sweep
   * step reads a column as directly as when the ring was one set of arrays (through the chunk object it measured
   * ~50 % slower per append in a steady window).
   */
  headReceivedAt = EMPTY.receivedAt;
  headUpdatedAt = EMPTY.updatedAt;
  headSupersededAt = EMPTY.supersededAt;
  headDecimal = EMPTY.decimal;
  headAmerican = EMPTY.american;
  headPrevDelta = EMPTY.prevDelta;
  headFlags = EMPTY.flags;
  tailSupersededAt = EMPTY.supersededAt;
  tailFlags = EMPTY.flags;
  /** `replace`'s columns for one object's fields. */
  scratch = new Float64Array(6);
  /** Entries held: the versions and receipts that readers inside the window may still see. */
  get size() {
    return this.head - this.tail;
  }
  /**
   * Records `price` as it is now (the version being replaced, or the receipt being re-confirmed) as superseded at
   * `now`: the latest entry of its chain. The caller then gives `price` the new version's fields in place, `links`
   * among them (the same links for a re-confirmation). The store's prices are columns (`replaceAt`); this form, for
   * an object, goes through the same code.
   */
  replace(price, links, now) {
    const cells = this.scratch;
    cells[0] = price.decimal;
    cells[1] = price.american;
    cells[2] = price.receivedAt;
    cells[3] = price.history;
    cells[4] = price.suspended ? PRICE_SUSPENDED : PRICE_PRESENT;
    cells[5] = price.updatedAt;
    this.replaceAt(cells, 0, 1, 5, price.links, links, now);
    price.history = cells[3];
  }
  /**
   * `replace` for a price held in columns (the store's hot blocks; store.ts): in `cells`, its decimal at `at`, its
   * American odds at `at + stride`, its time of receipt at `at + 2 * stride`, its chain's latest entry at
   * `at + 3 * stride` (given the new entry's), its flags (`PRICE_SUSPENDED`) at `at + 4 * stride`, its book time at
   * `updatedAt`. `links` are its links, `next` the new version's. Numbers are read from the array rather than passed:
   * a number passed to a call that is not inlined is boxed on the heap.
   */
  replaceAt(cells, at, stride, updatedAt, links, next, now) {
    if (this.tail < this.head && this.tailSupersededAt[this.tailOffset] <= now - this.windowMs)
      this.sweep(now - this.windowMs);
    if (this.headOffset === this.chunkSize) this.nextHeadChunk();
    const seq = this.head;
    const slot = this.headOffset;
    this.head += 1;
    this.headOffset = slot + 1;
    const previous = cells[at + 3 * stride];
    this.headDecimal[slot] = cells[at];
    this.headAmerican[slot] = cells[at + stride];
    this.headReceivedAt[slot] = cells[at + 2 * stride];
    this.headUpdatedAt[slot] = cells[updatedAt];
    this.headSupersededAt[slot] = now;
    this.headPrevDelta[slot] = previous >= this.tail ? seq - previous : 0;
    let flags = (cells[at + 4 * stride] & PRICE_SUSPENDED) !== 0 ? SUSPENDED : 0;
    if (links !== next) {
      flags |= OWN_LINKS;
      this.ownLinks.set(seq, links);
    }
    this.headFlags[slot] = flags;
    cells[at + 3 * stride] = seq;
  }
  /** The head's chunk is full (or there is none yet): it takes a spare one, or a new one. */
  nextHeadChunk() {
    const chunk = this.spare.pop() ?? makeChunk(this.chunkSize);
    this.chunks.push(chunk);
    this.headOffset = 0;
    this.headReceivedAt = chunk.receivedAt;
    this.headUpdatedAt = chunk.updatedAt;
    this.headSupersededAt = chunk.supersededAt;
    this.headDecimal = chunk.decimal;
    this.headAmerican = chunk.american;
    this.headPrevDelta = chunk.prevDelta;
    this.headFlags = chunk.flags;
    if (this.chunks.length === 1) this.tailColumns(chunk);
  }
  tailColumns(chunk) {
    this.tailSupersededAt = chunk.supersededAt;
    this.tailFlags = chunk.flags;
  }
  /**
   * The version of a chain as known at `at`: the newest receipt at or before it (with `updatedBy`, whose book time is
   * too): `newest` itself when it qualifies, else a copy of it with that entry's fields; null when the window
   * holds none.
   */
  versionAt(newest, at, updatedBy) {
    if (newest.receivedAt <= at && (!updatedBy || newest.updatedAt <= at)) return newest;
    let links = newest.links;
    for (let seq = newest.history; seq >= this.tail; ) {
      const place = seq - this.first * this.chunkSize;
      const chunk = this.chunks[place >>> this.shift];
      const slot = place & this.chunkSize - 1;
      if (chunk.flags[slot] & OWN_LINKS) links = this.ownLinks.get(seq);
      if (chunk.receivedAt[slot] <= at && (!updatedBy || chunk.updatedAt[slot] <= at))
        return materialise(newest, chunk, slot, links);
      const delta = chunk.prevDelta[slot];
      if (delta === 0) break;
      seq -= delta;
    }
    return null;
  }
  /** Every version of a chain still held, newest first (tests and diagnostics). */
  chain(newest) {
    const out = [newest];
    let links = newest.links;
    for (let seq = newest.history; seq >= this.tail; ) {
      const place = seq - this.first * this.chunkSize;
      const chunk = this.chunks[place >>> this.shift];
      const slot = place & this.chunkSize - 1;
      if (chunk.flags[slot] & OWN_LINKS) links = this.ownLinks.get(seq);
      out.push(materialise(newest, chunk, slot, links));
      const delta = chunk.prevDelta[slot];
      if (delta === 0) break;
      seq -= delta;
    }
    return out;
  }
  /** Drops the oldest entries superseded at or before `horizon`: no reader inside the window can see them. */
  sweep(horizon) {
    while (this.tail < this.head) {
      const slot = this.tailOffset;
      if (this.tailSupersededAt[slot] > horizon) return;
      if (this.tailFlags[slot] & OWN_LINKS) this.ownLinks.delete(this.tail);
      this.tail += 1;
      this.tailOffset = slot + 1;
      if (this.tailOffset === this.chunkSize) {
        const chunk = this.chunks.shift();
        this.first += 1;
        this.tailOffset = 0;
        if (this.spare.length < MAX_SPARE_CHUNKS) this.spare.push(chunk);
        if (this.chunks.length > 0) this.tailColumns(this.chunks[0]);
      }
    }
  }
};
function materialise(newest, chunk, slot, links) {
  return {
    ...newest,
    american: chunk.american[slot],
    decimal: chunk.decimal[slot],
    links,
    updatedAt: chunk.updatedAt[slot],
    receivedAt: chunk.receivedAt[slot],
    suspended: (chunk.flags[slot] & SUSPENDED) !== 0,
    history: NONE
  };
}

// src/engine/store.ts
var BOOKS_BY_KEY = [...SPORTSBOOK_KEYS].sort();
var BOOKS_BY_SLOT = BOOKS_BY_KEY;
var BOOK_COUNT = BOOKS_BY_KEY.length;
var BOOK_SLOTS = new Map(BOOKS_BY_KEY.map((book, slot) => [book, slot]));
if (BOOK_COUNT > 31) throw new Error("the last scan holds one bit per book slot: at most 31 books");
function lastScanAt(ways) {
  return ways * BOOK_COUNT * 2;
}
function bookSlot(book) {
  return BOOK_SLOTS.get(book) ?? -1;
}
var MAX_EVENT_PLAYERS = 1e3;
var TYPE_CODES = {
  moneyline: 0,
  spread: 1,
  total: 2,
  "1x2": 3
};
var PERIOD_CODES = {
  full: 0,
  h1: 1,
  h2: 2,
  q1: 3,
  q2: 4,
  q3: 5,
  q4: 6,
  p1: 7,
  p2: 8,
  p3: 9,
  f5: 10
};
var STAT_CODES = new Map(PROP_STAT_KEYS.map((stat, index) => [stat, index]));
function propMarketCode(stat, periodCode, playerIndex, point) {
  const pointCode = point === null ? 0 : point * 2 + 1;
  return -(1 + STAT_CODES.get(stat) + 32 * (periodCode + 16 * (pointCode + 2048 * playerIndex)));
}
function marketCode(typeCode, periodCode, point) {
  return typeCode + periodCode * 4 + (point === null ? 0 : point * 2 + 2001) * 64;
}
function hotBlockSize(ways) {
  return ways * (BOOK_COUNT * (2 + PRICE_ROW) + 2);
}
var PRICE_ROW = 5;
function priceColumns(ways) {
  return ways * (BOOK_COUNT * 2 + 2);
}
function readPrice(market, outcome, slot) {
  const index = outcome * BOOK_COUNT + slot;
  const hot = market.hot;
  const at = market.at + market.columns + index * PRICE_ROW;
  return {
    book: BOOKS_BY_KEY[slot],
    outcome: market.outcomes[outcome],
    american: hot[at + 1],
    decimal: hot[at],
    links: market.links[index],
    updatedAt: hot[market.at + market.cells + index],
    receivedAt: hot[at + 2],
    suspended: (hot[at + 4] & PRICE_SUSPENDED) !== 0,
    history: hot[at + 3]
  };
}
function priceAt(market, index) {
  if (market.links[index] === void 0) return void 0;
  const outcome = index / BOOK_COUNT | 0;
  return readPrice(market, outcome, index - outcome * BOOK_COUNT);
}
function pricesOf(market, outcome) {
  return market.quoted[outcome].map((slot) => readPrice(market, outcome, slot));
}
var NO_HOT = new Float64Array(0);
var HOT_CHUNK = 65536;
var HotPool = class {
  chunk = new Float64Array(HOT_CHUNK);
  used = 0;
  /** Freed blocks by size: the array, then the start, of each. */
  free = /* @__PURE__ */ new Map();
  /** A zeroed block of `size` numbers: its array and start. */
  take(size, into) {
    const free = this.free.get(size);
    if (free !== void 0 && free.starts.length > 0) {
      into.hot = free.chunks.pop();
      into.at = free.starts.pop();
      return;
    }
    if (size > HOT_CHUNK) {
      into.hot = new Float64Array(size);
      into.at = 0;
      return;
    }
    if (this.used + size > HOT_CHUNK) {
      this.chunk = new Float64Array(HOT_CHUNK);
      this.used = 0;
    }
    into.hot = this.chunk;
    into.at = this.used;
    this.used += size;
  }
  /** Takes a block back: the market gets a copy of it, and the place is zeroed for the next market of its size. */
  give(market, size) {
    const { hot, at } = market;
    market.hot = hot.slice(at, at + size);
    market.at = 0;
    if (size > HOT_CHUNK) return;
    hot.fill(0, at, at + size);
    let free = this.free.get(size);
    if (free === void 0) {
      free = { chunks: [], starts: [] };
      this.free.set(size, free);
    }
    free.chunks.push(hot);
    free.starts.push(at);
  }
};
var OddsStore = class _OddsStore {
  constructor(historyMs) {
    this.historyMs = historyMs;
    this.versions = new VersionRing(historyMs);
  }
  historyMs;
  hotPool = new HotPool();
  eventsById = /* @__PURE__ */ new Map();
  marketsByKey = /* @__PURE__ */ new Map();
  listeners = /* @__PURE__ */ new Set();
  eventListeners = /* @__PURE__ */ new Set();
  versions;
  /**
   * Moves every fixture, price and version to a new store, which nobody subscribes to and nothing changes any more,
   * and goes on empty with its subscribers (an `api` instance following a new ingest leader: delayed readers still
   * read the previous leader's market from the store handed over; decision 146). No change is announced.
   */
  handOver() {
    const retired = new _OddsStore(this.historyMs);
    retired.eventsById = this.eventsById;
    retired.marketsByKey = this.marketsByKey;
    retired.versions = this.versions;
    retired.hotPool = this.hotPool;
    this.hotPool = new HotPool();
    this.eventsById = /* @__PURE__ */ new Map();
    this.marketsByKey = /* @__PURE__ */ new Map();
    this.versions = new VersionRing(this.historyMs);
    return retired;
  }
  /** Earlier versions and receipts held for delayed readers. */
  get versionCount() {
    return this.versions.size;
  }
  /**
   * The version of a price as known at `at`: the newest receipt at or before it (and, with `updatedBy`, whose book
   * time is too); null when the window holds none. An earlier version is returned as a copy.
   */
  versionAt(newest, at, updatedBy = false) {
    return this.versions.versionAt(newest, at, updatedBy);
  }
  /** Every version of a price inside the window, newest first (tests and diagnostics). */
  versionChain(newest) {
    return this.versions.chain(newest);
  }
  get eventCount() {
    return this.eventsById.size;
  }
  get marketCount() {
    return this.marketsByKey.size;
  }
  events() {
    return [...this.eventsById.values()].map((state) => state.event);
  }
  event(id) {
    return this.eventsById.get(id)?.event;
  }
  eventState(id) {
    return this.eventsById.get(id);
  }
  markets(eventId) {
    return [...this.eventsById.get(eventId)?.markets.values() ?? []];
  }
  market(key) {
    return this.marketsByKey.get(key);
  }
  allMarkets() {
    return this.marketsByKey.values();
  }
  /**
   * Prices of one market as known at `at` (unix ms; default: now): for each outcome and book, the newest version
   * received at or before `at`. Versions older than the history window are gone, so `at` should lie inside it.
   */
  prices(key, at) {
    const market = this.marketsByKey.get(key);
    if (!market) return [];
    const out = [];
    for (let outcome = 0; outcome < market.outcomes.length; outcome += 1) {
      for (const newest of pricesOf(market, outcome)) {
        const version = at === void 0 ? newest : this.versions.versionAt(newest, at, false);
        if (version) out.push(stripHistory(version));
      }
    }
    return out;
  }
  /** Called for every accepted price (the paid API's stream subscribes here). Returns the unsubscribe function. */
  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  /** Called for every fixture created, changed or removed (the odds history subscribes here). */
  subscribeEvents(listener) {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }
  upsertEvent(event) {
    const existing = this.eventsById.get(event.id);
    let state;
    if (existing) {
      existing.event = event;
      state = existing;
    } else {
      state = {
        event,
        markets: /* @__PURE__ */ new Map(),
        byCode: /* @__PURE__ */ new Map(),
        players: /* @__PURE__ */ new Map(),
        rosterIndex: null,
        playerMatches: /* @__PURE__ */ new Map(),
        removed: false,
        valueMemo: void 0
      };
      this.eventsById.set(event.id, state);
    }
    for (const listener of this.eventListeners) listener({ kind: "upsert", event });
    return state;
  }
  removeEvent(id, cleared = false) {
    const state = this.eventsById.get(id);
    if (!state) return [];
    this.eventsById.delete(id);
    state.removed = true;
    for (const key of state.markets.keys()) this.marketsByKey.delete(key);
    const markets = [...state.markets.values()];
    for (const market of markets) this.hotPool.give(market, hotBlockSize(market.outcomes.length));
    for (const listener of this.eventListeners) listener({ kind: "remove", eventId: id, markets, cleared });
    return markets;
  }
  /**
   * Adds players to the event's roster (a player already held keeps his entry: a roster only grows while the event
   * lasts, so a market's player never changes). Returns how many joined.
   */
  addPlayers(eventState, players) {
    let added = 0;
    for (const player of players) {
      if (eventState.players.has(player.id) || eventState.players.size >= MAX_EVENT_PLAYERS) continue;
      eventState.players.set(player.id, { player, index: eventState.players.size });
      added += 1;
    }
    if (added > 0) {
      const event = eventState.event;
      eventState.rosterIndex = indexRoster({
        players: [...eventState.players.values()].map((entry) => entry.player),
        homeTeamId: event.home.id,
        awayTeamId: event.away.id
      });
      eventState.playerMatches.clear();
    }
    return added;
  }
  /**
   * The event's market for a code, created on first use; undefined when the event's league does not offer it (a
   * two-way moneyline where draws exist, a 1X2 where they do not, a prop stat, period or line it does not have).
   */
  marketFor(eventState, code, spec, player) {
    let market = eventState.byCode.get(code);
    if (!market) {
      const league = eventState.event.league;
      if (spec.type === "prop" ? propSpecProblem(league, spec) !== null : !isMarketAllowed(LEAGUES[league], spec))
        return void 0;
      const key = marketKey(eventState.event.id, spec);
      const outcomes = specOutcomes(spec);
      market = {
        key,
        eventId: eventState.event.id,
        spec,
        outcomes,
        cells: outcomes.length * BOOK_COUNT,
        hot: NO_HOT,
        columns: priceColumns(outcomes.length),
        links: new Array(outcomes.length * BOOK_COUNT).fill(void 0),
        quoted: outcomes.map(() => []),
        at: 0,
        scanned: false,
        dirtyRound: 0,
        owner: eventState,
        // Every field a market gets is in its first shape (the player, the caches): one hidden class for all of
        // them, so that the scans' reads stay monomorphic.
        player: player ?? void 0,
        feedCache: void 0,
        valueMemo: void 0
      };
      this.hotPool.take(hotBlockSize(outcomes.length), market);
      this.marketsByKey.set(key, market);
      eventState.markets.set(key, market);
      eventState.byCode.set(code, market);
    }
    return market;
  }
  /**
   * Stores a book's first price for an outcome of the market (validated upstream), at `index`
   * (`outcomeIndex * BOOK_COUNT + bookSlot(book)`): later versions update it (`update`, `confirm`).
   */
  put(market, index, outcomeIndex, book, next, links, now) {
    if (market.links[index] !== void 0) throw new Error(`${book} already quotes this outcome: update it`);
    market.quoted[outcomeIndex].push(index - outcomeIndex * BOOK_COUNT);
    market.hot[market.at + market.columns + index * PRICE_ROW + 3] = -1;
    this.write(market, index, next, links, now);
    if (this.listeners.size > 0) {
      const change = {
        eventId: market.eventId,
        marketKey: market.key,
        spec: market.spec,
        player: market.player,
        price: stripHistory(priceAt(market, index)),
        previous: null
      };
      for (const listener of this.listeners) listener(change);
    }
  }
  /**
   * A new version of a price the market holds at `index` (validated upstream): the version it replaces joins the
   * version ring, and the columns take `next`'s odds, book time and suspension, and `links`. Listeners hear the change
   * with copies of both versions. The new fields come in an object (the engine passes its checked message) rather
   * than as arguments: a number read from an object and passed to a call that is not inlined is boxed on the heap,
   * copied from object to object it is not.
   */
  update(market, index, next, links, now) {
    const before = this.listeners.size > 0 ? stripHistory(priceAt(market, index)) : null;
    const at = market.at + market.columns + index * PRICE_ROW;
    this.versions.replaceAt(
      market.hot,
      at,
      1,
      market.at + market.cells + index,
      market.links[index],
      links,
      now
    );
    this.write(market, index, next, links, now);
    if (before) this.notify(market, index, before);
  }
  /**
   * A re-confirmation of the newest version at `index` (same odds, suspension and links; a book time not earlier): the
   * receipt it had joins the version ring and it takes this receipt's times (`next.updatedAt`, `now`). Listeners hear
   * it as a change whose `previous` is the version as it was.
   */
  confirm(market, index, next, now) {
    const before = this.listeners.size > 0 ? stripHistory(priceAt(market, index)) : null;
    const hot = market.hot;
    const links = market.links[index];
    const at = market.at + market.columns + index * PRICE_ROW;
    const updatedAt = market.at + market.cells + index;
    this.versions.replaceAt(hot, at, 1, updatedAt, links, links, now);
    hot[at + 2] = now;
    hot[updatedAt] = next.updatedAt;
    if (before) this.notify(market, index, before);
  }
  /** Writes a version into the price's columns (and its decimal, 0 while suspended, where the scanner reads it). */
  write(market, index, next, links, now) {
    const hot = market.hot;
    const at = market.at + market.columns + index * PRICE_ROW;
    const suspended = next.suspended;
    hot[at] = next.decimal;
    hot[at + 1] = next.american;
    hot[at + 2] = now;
    hot[at + 4] = suspended ? PRICE_PRESENT | PRICE_SUSPENDED : PRICE_PRESENT;
    hot[market.at + index] = suspended ? 0 : next.decimal;
    hot[market.at + market.cells + index] = next.updatedAt;
    market.links[index] = links;
  }
  /** Tells the listeners that the price at `index` replaced `before` (a copy of it as it was). */
  notify(market, index, before) {
    const change = {
      eventId: market.eventId,
      marketKey: market.key,
      spec: market.spec,
      player: market.player,
      price: stripHistory(priceAt(market, index)),
      previous: before
    };
    for (const listener of this.listeners) listener(change);
  }
};
function stripHistory(price) {
  const { history: _history, ...rest } = price;
  return rest;
}

// src/engine/messages.ts
var DROP_REASONS = [
  "malformed",
  "payload_too_large",
  "not_json",
  "invalid_odds",
  "american_out_of_range",
  /** Decimal odds outside the plausible range (ODDS_MIN_DECIMAL..ODDS_MAX_DECIMAL; decision 046). */
  "odds_out_of_range",
  "missing_teams",
  "unknown_league",
  "unknown_market",
  "unknown_book",
  "unknown_event",
  "future_timestamp",
  /** A start or update time outside the plausible window around now (decision 045). */
  "time_out_of_range",
  "bad_link",
  "unfilled_placeholder",
  /** A prop whose player is not on the fixture's roster (not found, or listed under another team). */
  "unknown_player",
  /** A prop whose player could be two of the roster's (same name, or a surname two players share, without an id). */
  "ambiguous_player",
  /**
   * Refused for control or bidi characters (decision 148): an id (a key: never cleaned) or a link holding one, or a
   * name with nothing else in it. A roster entry or a link is left out, its message kept; anything else is refused.
   */
  "control_characters",
  /** Not a refusal: control or bidi characters removed from a name or abbreviation that was kept (decision 148). */
  "text_cleaned"
];
function emptyDropCounters() {
  return Object.fromEntries(DROP_REASONS.map((reason) => [reason, 0]));
}

// src/engine/ingest.ts
var fail = (reason) => ({ ok: false, reason });
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function text(value, max) {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed.length > 0 && trimmed.length <= max ? trimmed : null;
}
var UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
var UNSAFE_ALL = new RegExp(UNSAFE.source, "g");
function nameText(value, max, notes) {
  if (typeof value !== "string" || !UNSAFE.test(value)) return text(value, max);
  const cleaned = value.replace(UNSAFE_ALL, "").trim();
  if (cleaned.length === 0) return false;
  if (cleaned.length > max) return null;
  notes.cleaned += 1;
  return cleaned;
}
function idText(value, max) {
  if (typeof value === "string" && UNSAFE.test(value)) return false;
  return text(value, max);
}
var MAX_ROSTER = 200;
function deriveAbbreviation(name) {
  const words2 = name.replace(/[^A-Za-z0-9 ]+/g, " ").split(/\s+/).filter(Boolean);
  const letters = words2.length > 1 ? words2.map((word) => word[0]).join("") : (words2[0] ?? "TBD").slice(0, 3);
  return letters.toUpperCase().slice(0, 4) || "TBD";
}
function checkTeam(value, notes) {
  if (!isRecord(value)) return null;
  const name = nameText(value.name, 200, notes);
  const id = idText(value.id, 128);
  if (name === false || id === false) return false;
  if (!name) return null;
  const abbreviation = nameText(value.abbreviation, 16, notes);
  if (abbreviation === false) notes.cleaned += 1;
  return { id: id ?? slug(name), name, abbreviation: abbreviation || deriveAbbreviation(name) };
}
function parseTime(value) {
  if (typeof value === "number") return Number.isFinite(value) && value > 0 ? value : null;
  if (typeof value === "string" && value.length <= 40) {
    const ms = Date.parse(value);
    return Number.isFinite(ms) ? ms : null;
  }
  return null;
}
var DAY_MS = 864e5;
var DEFAULT_INGEST_LIMITS = {
  minDecimal: 1.001,
  maxDecimal: 1001,
  startPastMs: 2 * DAY_MS,
  startFutureMs: 400 * DAY_MS,
  updatePastMs: 400 * DAY_MS,
  skewMs: 5e3
};
var MAX_DECIMAL_LIMIT = 1e6;
function assertIngestLimits(limits) {
  const { minDecimal, maxDecimal } = limits;
  if (!(minDecimal > 1 && minDecimal <= maxDecimal && maxDecimal <= MAX_DECIMAL_LIMIT))
    throw new RangeError(
      `Decimal odds range must satisfy 1 < min <= max <= ${MAX_DECIMAL_LIMIT}, got ${minDecimal}..${maxDecimal}`
    );
  for (const key of ["startPastMs", "startFutureMs", "updatePastMs", "skewMs"])
    if (!(limits[key] >= 0 && Number.isFinite(limits[key])))
      throw new RangeError(`${key} must be a finite number >= 0, got ${limits[key]}`);
}
var MAX_TIMER_MS = 2 ** 31 - 1;
function checkEvent(message, now, limits = DEFAULT_INGEST_LIMITS, notes = { cleaned: 0, refused: 0 }) {
  const sourceEventId = message.sourceEventId;
  if (typeof sourceEventId !== "string" || sourceEventId.length === 0 || sourceEventId.length > 200)
    return fail("malformed");
  if (UNSAFE.test(sourceEventId)) return fail("control_characters");
  const home = checkTeam(message.home, notes);
  const away = checkTeam(message.away, notes);
  if (home === false || away === false) return fail("control_characters");
  if (!home || !away || normalisedEqual(home.name, away.name)) return fail("missing_teams");
  if (typeof message.league !== "string" || !isLeagueKey(message.league)) return fail("unknown_league");
  const startsAt = parseTime(message.startsAt);
  if (startsAt === null) return fail("malformed");
  if (startsAt < now - limits.startPastMs || startsAt > now + limits.startFutureMs)
    return fail("time_out_of_range");
  if (message.live !== void 0 && typeof message.live !== "boolean") return fail("malformed");
  let players = [];
  if (message.players !== void 0) {
    if (!Array.isArray(message.players) || message.players.length > MAX_ROSTER) return fail("malformed");
    players = checkRoster(message.players, home, away, notes);
  }
  return {
    ok: true,
    value: {
      kind: "event",
      sourceEventId,
      league: message.league,
      home,
      away,
      startsAt,
      live: message.live === true,
      players
    }
  };
}
function checkRoster(entries, home, away, notes) {
  const players = [];
  const ids = /* @__PURE__ */ new Set();
  for (const entry of entries) {
    if (!isRecord(entry)) continue;
    const entryNotes = { cleaned: 0, refused: 0 };
    const name = nameText(entry.name, 100, entryNotes);
    const givenId = idText(entry.id, 128);
    if (name === false || givenId === false) {
      notes.refused += 1;
      continue;
    }
    const rawTeam = typeof entry.team === "string" ? entry.team : "";
    const team2 = entry.team === void 0 || entry.team === null ? "" : rawTeam === "home" || rawTeam === home.id ? "home" : rawTeam === "away" || rawTeam === away.id ? "away" : null;
    if (!name || team2 === null) continue;
    const id = givenId ?? `${team2 || "unknown"}:${slug(name)}`;
    if (ids.has(id)) continue;
    ids.add(id);
    notes.cleaned += entryNotes.cleaned;
    players.push({ id, name, team: team2 });
  }
  return players;
}
function checkEnd(message) {
  const sourceEventId = message.sourceEventId;
  if (typeof sourceEventId !== "string" || sourceEventId.length === 0) return fail("unknown_event");
  return { ok: true, value: { kind: "end", sourceEventId } };
}
function normalisedEqual(a, b) {
  return a.toLowerCase() === b.toLowerCase();
}
function emptyCheckedPrice() {
  return {
    kind: "price",
    sourceEventId: "",
    book: "fanduel",
    bookSlot: bookSlot("fanduel"),
    type: "moneyline",
    period: "full",
    typeCode: TYPE_CODES.moneyline,
    periodCode: PERIOD_CODES.full,
    point: null,
    stat: null,
    playerId: null,
    playerName: "",
    playerTeam: null,
    outcome: "home",
    outcomeIndex: 0,
    american: 100,
    decimal: 2,
    links: void 0,
    updatedAt: 0,
    suspended: false
  };
}
var MARKET_TYPES_BY_NAME = new Map(
  MARKET_TYPES.map((type) => [
    type,
    type === "prop" ? { code: -1, outcomes: [] } : { code: TYPE_CODES[type], outcomes: outcomesOf(type) }
  ])
);
var PERIODS_BY_NAME = new Map(PERIODS.map((period) => [period, PERIOD_CODES[period]]));
var AMERICAN_TEXT = /^\s*[+-]?\d+(\.\d+)?\s*$/;
function oddsInto(american, decimal, limits, out) {
  if (american !== void 0 && american !== null) {
    let value;
    if (typeof american === "number") value = american;
    else if (typeof american === "string" && AMERICAN_TEXT.test(american)) value = Number(american);
    else return "invalid_odds";
    if (!Number.isFinite(value) || value === 0) return "invalid_odds";
    if (!isValidAmerican(value)) return "american_out_of_range";
    const d2 = canonicalDecimal(americanToDecimal(value));
    if (!(d2 > 1)) return "invalid_odds";
    if (!(d2 >= limits.minDecimal && d2 <= limits.maxDecimal)) return "odds_out_of_range";
    out.american = value;
    out.decimal = d2;
    return null;
  }
  if (typeof decimal !== "number" || !Number.isFinite(decimal) || decimal <= 1) return "invalid_odds";
  const d = canonicalDecimal(decimal);
  if (!(d > 1)) return "invalid_odds";
  if (!(d >= limits.minDecimal && d <= limits.maxDecimal)) return "odds_out_of_range";
  out.american = decimalToAmerican(d);
  out.decimal = d;
  return null;
}
var BOOKS = new Map(
  SPORTSBOOK_KEYS.map((key) => [
    key,
    { config: getSportsbook(key), slot: bookSlot(key), verdicts: { desktop: /* @__PURE__ */ new Map(), mobile: /* @__PURE__ */ new Map() } }
  ])
);
var MAX_CACHED_LINKS = 5e4;
var cachedVerdicts = 0;
var linksCache = /* @__PURE__ */ new Map();
var cachedPairs = 0;
function sharedLinks(desktop, mobile) {
  let byMobile = linksCache.get(desktop ?? "");
  let links = byMobile?.get(mobile ?? "");
  if (links === void 0) {
    if (cachedPairs >= MAX_CACHED_LINKS) {
      linksCache.clear();
      cachedPairs = 0;
      byMobile = void 0;
    }
    if (byMobile === void 0) {
      byMobile = /* @__PURE__ */ new Map();
      linksCache.set(desktop ?? "", byMobile);
    }
    links = { desktop, mobile };
    byMobile.set(mobile ?? "", links);
    cachedPairs += 1;
  }
  return links;
}
function checkLink(book, link, kind) {
  if (typeof link !== "string") return "bad_link";
  const cached = book.verdicts[kind].get(link);
  if (cached) return cached;
  let verdict;
  if (UNSAFE.test(link)) verdict = "control_characters";
  else if (/\{[A-Za-z_][A-Za-z0-9_]*\}|%7b[a-z_][a-z0-9_]*%7d/i.test(link)) verdict = "unfilled_placeholder";
  else verdict = isAllowedLink(book.config, link, kind) ? "ok" : "bad_link";
  if (cachedVerdicts >= MAX_CACHED_LINKS) {
    for (const known of BOOKS.values()) {
      known.verdicts.desktop.clear();
      known.verdicts.mobile.clear();
    }
    cachedVerdicts = 0;
  }
  book.verdicts[kind].set(link, verdict);
  cachedVerdicts += 1;
  return verdict;
}
function checkPrice(message, now, limits, onPartialDrop, out) {
  const sourceEventId = message.sourceEventId;
  if (typeof sourceEventId !== "string" || sourceEventId.length === 0 || sourceEventId.length > 200)
    return "malformed";
  const known = typeof message.book === "string" ? BOOKS.get(message.book) : void 0;
  if (!known) return "unknown_book";
  const book = known.config;
  const market = typeof message.market === "string" ? MARKET_TYPES_BY_NAME.get(message.market) : void 0;
  if (market === void 0) return "unknown_market";
  const type = message.market;
  const period = message.period ?? "full";
  const periodCode = typeof period === "string" ? PERIODS_BY_NAME.get(period) : void 0;
  if (periodCode === void 0) return "unknown_market";
  const outcome = message.outcome;
  let outcomes;
  let stat = null;
  if (type === "prop") {
    const rawStat = message.stat;
    const kind = typeof rawStat === "string" && isPropStatKey(rawStat) ? propKindOf(rawStat) : void 0;
    if (!kind) return "unknown_market";
    stat = rawStat;
    outcomes = propOutcomes(kind);
    if (!isRecord(message.player)) return "malformed";
  } else outcomes = market.outcomes;
  const outcomeIndex = typeof outcome === "string" ? outcomes.indexOf(outcome) : -1;
  if (outcomeIndex < 0) return "unknown_market";
  const rawPoint = message.point ?? null;
  if (rawPoint !== null && typeof rawPoint !== "number") return "unknown_market";
  const point = type === "spread" && rawPoint !== null && outcome === "away" ? -rawPoint + 0 : rawPoint;
  if (type === "prop") {
    const player = message.player;
    const name = player.name === void 0 || player.name === null ? "" : text(player.name, 100);
    const id = player.id === void 0 || player.id === null ? null : text(player.id, 128);
    const team2 = player.team === void 0 || player.team === null ? null : text(player.team, 128);
    if (name === null || name === "" && id === null) return "malformed";
    if ((player.id ?? null) !== null && id === null) return "malformed";
    if ((player.team ?? null) !== null && team2 === null) return "malformed";
    out.playerId = id;
    out.playerName = name;
    out.playerTeam = team2;
  } else if (!isValidPoint(type, point)) return "unknown_market";
  const oddsReason = oddsInto(message.american, message.decimal, limits, out);
  if (oddsReason) return oddsReason;
  let updatedAt = now;
  if (message.updatedAt !== void 0) {
    const parsed = parseTime(message.updatedAt);
    if (parsed === null) return "malformed";
    if (parsed > now + limits.skewMs) return "future_timestamp";
    if (parsed < now - limits.updatePastMs) return "time_out_of_range";
    updatedAt = Math.min(parsed, now);
  }
  if (message.suspended !== void 0 && typeof message.suspended !== "boolean") return "malformed";
  let links;
  if (message.links !== void 0) {
    if (!isRecord(message.links)) return "malformed";
    let desktop = null;
    let mobile = null;
    for (const kind of ["desktop", "mobile"]) {
      const link = message.links[kind];
      if (link === void 0 || link === null || link === "") continue;
      const verdict = checkLink(known, link, kind);
      if (verdict !== "ok") onPartialDrop(verdict);
      else if (kind === "desktop") desktop = link;
      else mobile = link;
    }
    links = sharedLinks(desktop, mobile);
  }
  out.sourceEventId = sourceEventId;
  out.book = book.key;
  out.bookSlot = known.slot;
  out.type = type;
  out.period = period;
  out.typeCode = market.code;
  out.periodCode = periodCode;
  out.point = point;
  out.stat = stat;
  if (stat === null) {
    out.playerId = null;
    out.playerName = "";
    out.playerTeam = null;
  }
  out.outcome = outcomes[outcomeIndex];
  out.outcomeIndex = outcomeIndex;
  out.links = links;
  out.updatedAt = updatedAt;
  out.suspended = message.suspended === true;
  return null;
}
var DEFAULT_MAX_PAYLOAD_BYTES = 8 * 1024 * 1024;
function parsePayload(body, maxBytes = DEFAULT_MAX_PAYLOAD_BYTES) {
  const size = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  if (size > maxBytes) return fail("payload_too_large");
  try {
    return {
      ok: true,
      value: JSON.parse(typeof body === "string" ? body : Buffer.from(body).toString("utf8"))
    };
  } catch {
    return fail("not_json");
  }
}
var Intake = class {
  constructor(limits = {}, onDrop) {
    this.onDrop = onDrop;
    this.limits = { ...DEFAULT_INGEST_LIMITS, ...limits };
    assertIngestLimits(this.limits);
  }
  onDrop;
  limits;
  counters = emptyDropCounters();
  total = 0;
  price = emptyCheckedPrice();
  countPartialDrop = (reason) => this.drop(reason);
  get dropped() {
    return this.total;
  }
  /** A copy of the counters, one per reason. */
  drops() {
    return { ...this.counters };
  }
  drop(reason, count = 1) {
    this.counters[reason] += count;
    this.total += count;
    this.onDrop?.(reason, count);
  }
  /** The messages of a payload (one message or an array of them); null, counted, when too large or not JSON. */
  parse(body, maxBytes) {
    const parsed = parsePayload(body, maxBytes);
    if (!parsed.ok) {
      this.drop(parsed.reason);
      return null;
    }
    return Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  }
  /** Checks one untrusted message at `now`: the checked message, or null when it was dropped (and counted). */
  check(message, now) {
    if (!isRecord(message)) return this.refuse("malformed");
    switch (message.kind) {
      case "price": {
        const reason = checkPrice(message, now, this.limits, this.countPartialDrop, this.price);
        return reason ? this.refuse(reason) : this.price;
      }
      case "event": {
        const notes = { cleaned: 0, refused: 0 };
        const checked = checkEvent(message, now, this.limits, notes);
        if (!checked.ok) return this.refuse(checked.reason);
        if (notes.cleaned > 0) this.drop("text_cleaned", notes.cleaned);
        if (notes.refused > 0) this.drop("control_characters", notes.refused);
        return checked.value;
      }
      case "end": {
        const checked = checkEnd(message);
        return checked.ok ? checked.value : this.refuse(checked.reason);
      }
      default:
        return this.refuse("malformed");
    }
  }
  refuse(reason) {
    this.drop(reason);
    return null;
  }
};

// src/engine/publisher.ts
function feedBody(generatedAtMs, source, arbsJson) {
  return Buffer.from(
    `{"generated_at":${Math.floor(generatedAtMs / 1e3)},"source":${JSON.stringify(source)},"arbs":${arbsJson}}`
  );
}
var ArbsJson = class {
  kept = /* @__PURE__ */ new Map();
  /** The UTF-8 bytes of the last body's arbs, by arb (`body`). */
  bytes = /* @__PURE__ */ new Map();
  lastArbs = [];
  lastPieces = [];
  lastJson = void 0;
  /** Whether any call gave pieces yet (the first always counts as a change). */
  started = false;
  /** Whether the last `write` or `update` gave a JSON other than the call before it (true for the first call). */
  changed = true;
  /** The arbs' JSON (what `JSON.stringify(arbs)` gives); `changed` says whether it differs from the last call's. */
  write(arbs) {
    this.update(arbs);
    return this.json();
  }
  /** Takes the feed's arbs, as `write` does, without joining their JSON (`json` and `body` give it). */
  update(arbs) {
    const count = arbs.length;
    let same = this.started && count === this.lastArbs.length;
    for (let i = 0; same && i < count; i += 1) if (arbs[i] !== this.lastArbs[i]) same = false;
    this.lastArbs = arbs;
    if (same) {
      this.changed = false;
      return;
    }
    const kept = this.kept;
    const lastPieces = this.lastPieces;
    const next = /* @__PURE__ */ new Map();
    const pieces = new Array(count);
    let equal = this.started && count === lastPieces.length;
    for (let i = 0; i < count; i += 1) {
      const arb = arbs[i];
      let one = next.get(arb) ?? kept.get(arb);
      if (one === void 0) one = JSON.stringify(arb);
      next.set(arb, one);
      pieces[i] = one;
      if (equal && one !== lastPieces[i]) equal = false;
    }
    this.kept = next;
    this.lastPieces = pieces;
    this.started = true;
    this.changed = !equal;
    if (!equal) this.lastJson = void 0;
  }
  /** The last arbs' JSON, joined once. */
  json() {
    return this.lastJson ??= `[${this.lastPieces.join(",")}]`;
  }
  /**
   * The feed body of the last arbs (`feedBody` of their JSON, byte for byte), put together from each arb's UTF-8 bytes,
   * kept while the arb stays in the feed: no string of the whole feed to build and encode (decision 197).
   */
  body(generatedAtMs, source) {
    const head = Buffer.from(
      `{"generated_at":${Math.floor(generatedAtMs / 1e3)},"source":${JSON.stringify(source)},"arbs":[`
    );
    const arbs = this.lastArbs;
    const pieces = this.lastPieces;
    const kept = this.bytes;
    const next = /* @__PURE__ */ new Map();
    const parts = new Array(arbs.length);
    let length = head.length + Math.max(0, arbs.length - 1) + 2;
    for (let i = 0; i < arbs.length; i += 1) {
      const arb = arbs[i];
      const bytes = next.get(arb) ?? kept.get(arb) ?? Buffer.from(pieces[i]);
      next.set(arb, bytes);
      parts[i] = bytes;
      length += bytes.length;
    }
    this.bytes = next;
    const out = Buffer.allocUnsafe(length);
    let at = head.copy(out, 0);
    for (let i = 0; i < parts.length; i += 1) {
      if (i > 0) out[at++] = COMMA;
      at += parts[i].copy(out, at);
    }
    out[at++] = CLOSE_BRACKET;
    out[at++] = CLOSE_BRACE;
    return out;
  }
};
var COMMA = 44;
var CLOSE_BRACKET = 93;
var CLOSE_BRACE = 125;
var SnapshotHistory = class {
  constructor(historyMs, historyStepMs) {
    this.historyMs = historyMs;
    this.historyStepMs = historyStepMs;
  }
  historyMs;
  historyStepMs;
  /** One snapshot per `historyStepMs` bucket of time (the bucket's newest), oldest first. */
  items = [];
  latestSnapshot;
  get latest() {
    return this.latestSnapshot;
  }
  get size() {
    return this.items.length;
  }
  add(snapshot) {
    this.latestSnapshot = snapshot;
    const past = {
      at: snapshot.at,
      generatedAt: snapshot.generatedAt,
      arbs: snapshot.arbs,
      keys: snapshot.keys
    };
    const last = this.items[this.items.length - 1];
    if (last && this.bucket(last.at) === this.bucket(snapshot.at)) this.items[this.items.length - 1] = past;
    else this.items.push(past);
    const horizon = snapshot.at - this.historyMs;
    let drop = 0;
    while (drop + 1 < this.items.length && this.items[drop + 1].at <= horizon) drop += 1;
    if (drop > 0) this.items.splice(0, drop);
  }
  /**
   * The newest snapshot built at or before `time` (unix ms), as far as the steps keep it: at most one step plus one
   * publish interval older than the exact one. Undefined when none that old is kept.
   */
  at(time) {
    const latest = this.latestSnapshot;
    if (latest && latest.at <= time) return latest;
    let lo = 0;
    let hi = this.items.length - 1;
    let found;
    while (lo <= hi) {
      const mid = lo + hi >> 1;
      const item = this.items[mid];
      if (item.at <= time) {
        found = item;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }
  bucket(at) {
    return Math.floor(at / this.historyStepMs);
  }
};

// src/domain/arb-feed.ts
function arbKeyOf(eventId, sideIds) {
  return `${eventId}:${[...sideIds].sort().join(",")}`;
}

// src/engine/combinations.ts
var INITIAL = 256;
var sums = new Float64Array(INITIAL);
var sets = new Float64Array(INITIAL);
var places = new Int32Array(INITIAL * 3);
function grow() {
  const size = sums.length * 2;
  const more = (from, to) => {
    to.set(from);
    return to;
  };
  sums = more(sums, new Float64Array(size));
  sets = more(sets, new Float64Array(size));
  places = more(places, new Int32Array(size * 3));
}
function setOf(a, b, c) {
  let x = a;
  let y = b;
  if (y < x) [x, y] = [y, x];
  if (c < 0) return x * 32 + y;
  let z = c;
  if (z < y) {
    [y, z] = [z, y];
    if (y < x) [x, y] = [y, x];
  }
  return (x * 32 + y) * 32 + z;
}
function combineBest(decimals, offset, stride, ways, top, count, counts, limit, maxPerMarket, out) {
  if (ways < 2 || ways > 3) return 0;
  let n2 = 0;
  const n0 = counts[0];
  const n1 = counts[1];
  const n22 = ways === 3 ? counts[2] : 0;
  for (let i = 0; i < n0; i += 1) {
    const a = top[i];
    const sa = 1 / decimals[offset + a];
    if (sa >= limit) break;
    for (let j = 0; j < n1; j += 1) {
      const b = top[count + j];
      if (b === a) continue;
      const sb = sa + 1 / decimals[offset + stride + b];
      if (sb >= limit) break;
      if (ways === 2) {
        if (n2 === sums.length) grow();
        sums[n2] = sb;
        sets[n2] = setOf(a, b, -1);
        places[n2 * 3] = i;
        places[n2 * 3 + 1] = j;
        n2 += 1;
        continue;
      }
      for (let k = 0; k < n22; k += 1) {
        const c = top[2 * count + k];
        if (c === a || c === b) continue;
        const sc = sb + 1 / decimals[offset + 2 * stride + c];
        if (sc >= limit) break;
        if (n2 === sums.length) grow();
        sums[n2] = sc;
        sets[n2] = setOf(a, b, c);
        places[n2 * 3] = i;
        places[n2 * 3 + 1] = j;
        places[n2 * 3 + 2] = k;
        n2 += 1;
      }
    }
  }
  let found = 0;
  out.length = 0;
  let lastSum = -Infinity;
  let lastSet = -1;
  const most = Math.max(1, maxPerMarket);
  while (found < most) {
    let best = -1;
    for (let index = 0; index < n2; index += 1) {
      const sum2 = sums[index];
      if (sum2 < lastSum || sum2 === lastSum && sets[index] <= lastSet) continue;
      if (best >= 0) {
        const bestSum = sums[best];
        if (sum2 > bestSum || sum2 === bestSum && sets[index] >= sets[best]) continue;
      }
      best = index;
    }
    if (best < 0) break;
    if (takenBefore(best, found, out, ways, top, count)) {
      lastSum = sums[best];
      lastSet = sets[best];
      continue;
    }
    for (let way = 0; way < ways; way += 1) out.push(places[best * 3 + way]);
    found += 1;
    lastSum = sums[best];
    lastSet = sets[best];
  }
  return found;
}
function takenBefore(index, found, out, ways, top, count) {
  const set = sets[index];
  for (let f = 0; f < found; f += 1) {
    const a = top[out[f * ways]];
    const b = top[count + out[f * ways + 1]];
    const c = ways === 3 ? top[2 * count + out[f * ways + 2]] : -1;
    if (setOf(a, b, c) === set) return true;
  }
  return false;
}

// src/engine/scanner.ts
var DEFAULT_SCAN_OPTIONS = {
  ...DEFAULT_COMBINATION_OPTIONS,
  maxAgePreMatchMs: 6e4,
  maxAgeLiveMs: 1e4,
  maxEdgePct: 10
};
var NONE2 = { held: [], event: null, validUntil: Infinity };
function arbOf(held) {
  held.arb ??= buildArb(held.market, held.event, held.picks, held.suspect);
  return held.arb;
}
function maxAgeFor(event, options) {
  return event.live ? options.maxAgeLiveMs : options.maxAgePreMatchMs;
}
function isUsable(price, now, maxAgeMs) {
  return !price.suspended && now - price.updatedAt <= maxAgeMs;
}
function bestSlots(hot, base, times, now, maxAge, count, top, at) {
  let n2 = 0;
  for (let slot = 0; slot < BOOK_COUNT; slot += 1) {
    const decimal = hot[base + slot];
    if (decimal === 0 || now - hot[base + times + slot] > maxAge) continue;
    let place;
    if (n2 < count) {
      place = n2;
      n2 += 1;
    } else if (decimal > hot[base + top[at + count - 1]]) place = count - 1;
    else continue;
    while (place > 0 && decimal > hot[base + top[at + place - 1]]) {
      top[at + place] = top[at + place - 1];
      place -= 1;
    }
    top[at + place] = slot;
  }
  return n2;
}
var scratchTop = new Int32Array(3 * 8);
var scratchCounts = [];
var scratchPlaces = [];
function pickAt(top, count, ways, index, way) {
  return way * BOOK_COUNT + top[way * count + scratchPlaces[index * ways + way]];
}
function pickOf(market, index) {
  const row = market.at + market.columns + index * PRICE_ROW;
  return {
    book: BOOKS_BY_SLOT[index % BOOK_COUNT],
    outcome: market.outcomes[index / BOOK_COUNT | 0],
    american: market.hot[row + 1],
    decimal: market.hot[row],
    links: market.links[index]
  };
}
function samePick(pick, market, index) {
  const at = market.at + market.columns + index * PRICE_ROW;
  return pick.book === BOOKS_BY_SLOT[index % BOOK_COUNT] && pick.decimal === market.hot[at] && pick.american === market.hot[at + 1] && pick.links === market.links[index];
}
function scanMarket(market, event, now, options, previous) {
  const maxAge = maxAgeFor(event, options);
  const ways = market.outcomes.length;
  const count = options.topPerOutcome;
  const hot = market.hot;
  const at = market.at;
  const times = ways * BOOK_COUNT;
  const record = at + lastScanAt(ways);
  market.scanned = true;
  const limit = 1 - options.floorPct / 100;
  let bound = 0;
  let empty = false;
  for (let way = 0; way < ways; way += 1) {
    const base = at + way * BOOK_COUNT;
    let best = 0;
    let bestSlot = -1;
    for (let slot = 0; slot < BOOK_COUNT; slot += 1) {
      const decimal = hot[base + slot];
      if (decimal > best && now - hot[base + times + slot] <= maxAge) {
        best = decimal;
        bestSlot = slot;
      }
    }
    hot[record + way] = bestSlot < 0 ? 0 : 1 << bestSlot;
    hot[record + ways + way] = best;
    if (bestSlot < 0) empty = true;
    else bound += 1 / best;
  }
  if (empty || ways < 2 || ways > 3 || count <= 0 || bound >= limit) return NONE2;
  if (scratchTop.length < ways * count) scratchTop = new Int32Array(ways * count);
  const top = scratchTop;
  for (let way = 0; way < ways; way += 1) {
    const base = at + way * BOOK_COUNT;
    const from = way * count;
    const n2 = bestSlots(hot, base, times, now, maxAge, count, top, from);
    scratchCounts[way] = n2;
    let books = 0;
    for (let i = 0; i < n2; i += 1) books |= 1 << top[from + i];
    hot[record + way] = books;
    hot[record + ways + way] = n2 < count ? 0 : hot[base + top[from + n2 - 1]];
  }
  const found = combineBest(
    hot,
    at,
    BOOK_COUNT,
    ways,
    top,
    count,
    scratchCounts,
    limit,
    options.maxPerMarket,
    scratchPlaces
  );
  if (found === 0) return NONE2;
  if (previous && previous.event === event && previous.held.length === found) {
    let same = true;
    let until = Infinity;
    for (let index = 0; index < found && same; index += 1) {
      const held2 = previous.held[index].picks;
      for (let way = 0; way < ways; way += 1) {
        const y = pickAt(top, count, ways, index, way);
        if (!samePick(held2[way], market, y)) {
          same = false;
          break;
        }
        until = Math.min(until, hot[at + times + y] + maxAge + 1);
      }
    }
    if (same) {
      previous.validUntil = until;
      return previous;
    }
  }
  let validUntil = Infinity;
  const held = [];
  for (let index = 0; index < found; index += 1) {
    let reused;
    let inverse = 0;
    for (let way = 0; way < ways; way += 1) {
      const pick = pickAt(top, count, ways, index, way);
      validUntil = Math.min(validUntil, hot[at + times + pick] + maxAge + 1);
      inverse += 1 / hot[at + pick];
    }
    if (previous && previous.event === event) {
      for (const candidate of previous.held) {
        if (samePicksAt(candidate.picks, market, top, count, ways, index)) {
          reused = candidate;
          break;
        }
      }
    }
    if (reused === void 0) {
      const picks = [];
      for (let way = 0; way < ways; way += 1)
        picks.push(pickOf(market, pickAt(top, count, ways, index, way)));
      const edge = floorTo((1 / inverse - 1) * 100, EDGE_PLACES) + 0;
      reused = {
        edge,
        key: orderKey(market, event, picks),
        picks,
        market,
        event,
        suspect: edge > options.maxEdgePct,
        arb: void 0
      };
    }
    held.push(reused);
  }
  return { held, event, validUntil };
}
function samePicksAt(picks, market, top, count, ways, index) {
  for (let way = 0; way < ways; way += 1)
    if (!samePick(picks[way], market, pickAt(top, count, ways, index, way))) return false;
  return true;
}
function rescanMarkets(markets, now, options, results2) {
  let changed = false;
  for (const market of markets) {
    const owner = market.owner;
    const event = owner.removed ? void 0 : owner.event;
    const previous = results2.get(market.key);
    const result = event ? scanMarket(market, event, now, options, previous) : void 0;
    if (!result || result.held.length === 0) {
      if (previous) {
        results2.delete(market.key);
        changed = true;
      }
    } else {
      results2.set(market.key, result);
      if (!previous || !sameItems(previous.held, result.held)) changed = true;
    }
  }
  return changed;
}
function rescanAll(store, now, options, results2) {
  let changed = false;
  for (const key of results2.keys()) {
    if (!store.market(key)) {
      results2.delete(key);
      changed = true;
    }
  }
  return rescanMarkets(store.allMarkets(), now, options, results2) || changed;
}
function rankArbs(results2, limit = Infinity) {
  return rankResults(results2, limit).arbs;
}
var rankScratch = [];
function ranksBefore(x, y) {
  const a = rankScratch[x];
  const b = rankScratch[y];
  if (a.edge !== b.edge) return a.edge > b.edge;
  if (a.key !== b.key) return a.key < b.key;
  return x < y;
}
function byRank(x, y) {
  return ranksBefore(x, y) ? -1 : ranksBefore(y, x) ? 1 : 0;
}
function siftDown(heap, from) {
  let at = from;
  for (; ; ) {
    const left = 2 * at + 1;
    if (left >= heap.length) return;
    const right = left + 1;
    const worse = right < heap.length && ranksBefore(heap[left], heap[right]) ? right : left;
    if (!ranksBefore(heap[at], heap[worse])) return;
    const swap = heap[at];
    heap[at] = heap[worse];
    heap[worse] = swap;
    at = worse;
  }
}
function rankResults(results2, limit = Infinity, floor = Number.NEGATIVE_INFINITY) {
  const gathered = rankScratch;
  gathered.length = 0;
  if (floor > Number.NEGATIVE_INFINITY && limit < Infinity) {
    for (const result of results2) {
      for (const held of result.held) if (held.edge >= floor) gathered.push(held);
    }
    if (gathered.length < limit) gathered.length = 0;
  }
  if (gathered.length === 0)
    for (const result of results2) {
      for (const held of result.held) gathered.push(held);
    }
  const n2 = gathered.length;
  const count = Math.min(limit, n2);
  let order;
  if (count < n2) {
    const heap = [];
    for (let index = 0; index < n2; index += 1) {
      if (heap.length < count) {
        heap.push(index);
        let at = heap.length - 1;
        while (at > 0) {
          const parent = at - 1 >> 1;
          if (!ranksBefore(heap[parent], heap[at])) break;
          const swap = heap[parent];
          heap[parent] = heap[at];
          heap[at] = swap;
          at = parent;
        }
      } else if (count > 0 && ranksBefore(index, heap[0])) {
        heap[0] = index;
        siftDown(heap, 0);
      }
    }
    order = heap;
  } else {
    order = new Array(n2);
    for (let index = 0; index < n2; index += 1) order[index] = index;
  }
  order.sort(byRank);
  const ranked = { arbs: new Array(count), keys: new Array(count) };
  for (let i = 0; i < count; i += 1) {
    const held = gathered[order[i]];
    ranked.arbs[i] = arbOf(held);
    ranked.keys[i] = held.key;
  }
  gathered.length = 0;
  return ranked;
}
function sameItems(a, b) {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}
function feedCacheOf(market, event) {
  let cache = market.feedCache;
  if (!cache || cache.event !== event) {
    cache = {
      event,
      arbEvent: arbEventOf(event),
      label: specLabel(market.spec, market.player),
      sides: /* @__PURE__ */ new Map(),
      keys: /* @__PURE__ */ new Map()
    };
    market.feedCache = cache;
  }
  return cache;
}
function sideOf(cache, market, event, price) {
  const key = `${price.outcome}|${price.book}`;
  let fixed = cache.sides.get(key);
  if (!fixed) {
    fixed = {
      id: sideId(event.id, market.spec, price.outcome, price.book),
      name: specOutcomeLabel(event, market.spec, price.outcome, market.player),
      selection: { name: specSelectionName(event, market.spec, price.outcome, market.player) }
    };
    cache.sides.set(key, fixed);
  }
  return fixed;
}
function orderKey(market, event, picks) {
  const cache = feedCacheOf(market, event);
  let code = 0;
  for (let way = picks.length - 1; way >= 0; way -= 1) code = code * 32 + bookSlot(picks[way].book);
  let key = cache.keys.get(code);
  if (key === void 0) {
    const sides = picks.map((price) => sideOf(cache, market, event, price).id);
    key = `${event.id}|${cache.label}|${arbKeyOf(event.id, sides)}`;
    cache.keys.set(code, key);
  }
  return key;
}
function buildArb(market, event, prices, suspect) {
  const cache = feedCacheOf(market, event);
  const sides = prices.map((price) => {
    const fixed = sideOf(cache, market, event, price);
    return {
      id: fixed.id,
      sportsbook: price.book,
      name: fixed.name,
      price: formatAmerican(price.american),
      selection: fixed.selection,
      decimal_odds: price.decimal,
      implied_prob: roundTo(1 / price.decimal, PROB_PLACES),
      links: { desktop: price.links.desktop, mobile: price.links.mobile }
    };
  });
  const arb = {
    event: cache.arbEvent,
    market: cache.label,
    market_type: market.spec.type,
    sides,
    edge_pct: publishedEdge(prices.map((price) => price.decimal))
  };
  if (suspect) arb.suspect = true;
  return arb;
}

// src/domain/event-dto.ts
function toEventDto(event) {
  return {
    id: event.id,
    league: event.league,
    sport: LEAGUES[event.league].sport,
    home: { ...event.home },
    away: { ...event.away },
    starts_at: new Date(event.startsAt).toISOString(),
    live: event.live
  };
}
function toPlayerDto(player, event) {
  const team2 = player.team === "home" || player.team === event.home.id ? "home" : player.team === "away" || player.team === event.away.id ? "away" : null;
  return { id: player.id, name: player.name, team: team2 };
}

// src/domain/devig.ts
var DEFAULT_DEVIG_METHOD = "shin";
var sum = (values) => values.reduce((total2, value) => total2 + value, 0);
function checkImplied(implied) {
  if (implied.length < 2) throw new RangeError(`A market needs at least 2 outcomes, got ${implied.length}`);
  for (const q of implied) {
    if (!(q > 0 && q < 1)) throw new RangeError(`An implied probability must be in (0, 1), got ${q}`);
  }
}
var normalised = (values) => {
  const total2 = sum(values);
  return values.map((value) => value / total2);
};
function bisect(f, lo, hi) {
  for (let step = 0; step < 2e3; step += 1) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) return mid;
    const value = f(mid);
    if (value === 0) return mid;
    if (value > 0) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
function multiplicative(implied) {
  checkImplied(implied);
  return normalised(implied);
}
function additive(implied) {
  checkImplied(implied);
  const sorted = [...implied].sort((a, b) => b - a);
  let running = 0;
  let tau = 0;
  for (let m = 1; m <= sorted.length; m += 1) {
    running += sorted[m - 1];
    const candidate = (running - 1) / m;
    if (sorted[m - 1] - candidate > 0) tau = candidate;
  }
  return normalised(implied.map((q) => Math.max(q - tau, 0)));
}
function solvePower(implied) {
  checkImplied(implied);
  if (sum(implied) === 1) return { k: 1, probabilities: [...implied] };
  const f = (k2) => sum(implied.map((q) => q ** k2)) - 1;
  let lo = 0;
  let hi = 1;
  while (f(hi) > 0) {
    lo = hi;
    hi *= 2;
  }
  const k = bisect(f, lo, hi);
  return { k, probabilities: normalised(implied.map((q) => q ** k)) };
}
function power(implied) {
  return solvePower(implied).probabilities;
}
function shinProbabilities(implied, z) {
  const total2 = sum(implied);
  return implied.map((q) => (Math.sqrt(z * z + 4 * (1 - z) * q * q / total2) - z) / (2 * (1 - z)));
}
function solveShin(implied) {
  checkImplied(implied);
  if (sum(implied) === 1) return { z: 0, probabilities: [...implied] };
  if (implied.length === 2) {
    const [q1, q2] = implied;
    const total2 = q1 + q2;
    const k = (q1 * q1 - q2 * q2) / total2;
    const z2 = 1 - 2 * (q1 * q1 + q2 * q2 - total2) / (total2 * (k * k - 1));
    return { z: z2, probabilities: normalised(shinPair(q1, q2)) };
  }
  const z = bisect((candidate) => sum(shinProbabilities(implied, candidate)) - 1, -1, 1);
  return { z, probabilities: normalised(shinProbabilities(implied, z)) };
}
function shinPair(q1, q2) {
  return [(1 + q1 - q2) / 2, (1 + q2 - q1) / 2];
}
function shin(implied) {
  return solveShin(implied).probabilities;
}
var METHODS = {
  multiplicative,
  additive,
  power,
  shin
};
function devigImplied(implied, method = DEFAULT_DEVIG_METHOD) {
  return METHODS[method](implied);
}
function shinInto(implied, width, out) {
  let total2 = 0;
  for (let i = 0; i < width; i += 1) total2 += implied[i];
  if (total2 === 1) {
    for (let i = 0; i < width; i += 1) out[i] = implied[i];
    return;
  }
  if (width === 2) {
    const p1 = (1 + implied[0] - implied[1]) / 2;
    const p2 = (1 + implied[1] - implied[0]) / 2;
    const pairSum = p1 + p2;
    out[0] = p1 / pairSum;
    out[1] = p2 / pairSum;
    return;
  }
  const excess = (z2) => {
    let s = 0;
    for (let i = 0; i < width; i += 1) {
      const q = implied[i];
      s += (Math.sqrt(z2 * z2 + 4 * (1 - z2) * q * q / total2) - z2) / (2 * (1 - z2));
    }
    return s - 1;
  };
  const z = bisect(excess, -1, 1);
  let sum2 = 0;
  for (let i = 0; i < width; i += 1) {
    const q = implied[i];
    const p2 = (Math.sqrt(z * z + 4 * (1 - z) * q * q / total2) - z) / (2 * (1 - z));
    out[i] = p2;
    sum2 += p2;
  }
  for (let i = 0; i < width; i += 1) out[i] = out[i] / sum2;
}

// src/domain/history.ts
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
var widthOf = (rows) => rows.reduce((width, row) => Math.max(width, row.length), 0);
var isComplete = (row, width) => row.length === width && row.every((decimal) => decimal !== void 0 && isValidDecimal(decimal));
function medianImplied(complete, width) {
  if (complete.length === 0) return void 0;
  return Array.from({ length: width }, (_, outcome) => median(complete.map((row) => 1 / row[outcome])));
}
function consensusFair(byBook, method = "multiplicative") {
  if (byBook.length === 0) return void 0;
  const width = widthOf(byBook);
  if (width < 2) throw new RangeError(`A market needs at least 2 outcomes, got ${width}`);
  const medians = medianImplied(
    byBook.filter((row) => isComplete(row, width)),
    width
  );
  return medians && devigImplied(medians, method);
}

// src/domain/ev.ts
var EV_METHOD = DEFAULT_DEVIG_METHOD;
var EV_REFERENCE = "consensus";
var EV_MIN_BOOKS = 3;
var EV_PLACES = 3;
function expectedValue(decimal, fairProbability) {
  checkInputs(decimal, fairProbability);
  return fairProbability * decimal - 1;
}
function evPct(decimal, fairProbability) {
  return expectedValue(decimal, fairProbability) * 100;
}
function publishedEvPct(decimal, fairProbability) {
  return floorTo(evPct(decimal, fairProbability), EV_PLACES) + 0;
}
function marketFair(quotes, width, minBooks = EV_MIN_BOOKS) {
  if (width < 2) return void 0;
  const rows = /* @__PURE__ */ new Map();
  for (const quote of quotes) {
    if (quote.outcome < 0 || quote.outcome >= width || !isValidDecimal(quote.decimal)) continue;
    let row = rows.get(quote.book);
    if (!row) rows.set(quote.book, row = new Array(width).fill(void 0));
    row[quote.outcome] ??= quote.decimal;
  }
  const complete = [...rows.values()].filter((row) => row.every((decimal) => decimal !== void 0));
  if (complete.length < minBooks) return void 0;
  const probabilities = consensusFair(complete, EV_METHOD);
  return probabilities && { probabilities, books: complete.length };
}
function marketEv(quotes, width, options = {}) {
  const fair = marketFair(quotes, width, options.minBooks ?? EV_MIN_BOOKS);
  if (!fair) return { fair, prices: [] };
  const floor = options.minEvPct ?? 0;
  const prices = [];
  for (const quote of quotes) {
    if (quote.outcome < 0 || quote.outcome >= width || !isValidDecimal(quote.decimal)) continue;
    const fairProbability = fair.probabilities[quote.outcome];
    const pct = evPct(quote.decimal, fairProbability);
    if (pct > floor) prices.push({ ...quote, fairProbability, evPct: pct });
  }
  prices.sort((a, b) => b.evPct - a.evPct || (a.book < b.book ? -1 : a.book > b.book ? 1 : 0));
  return { fair, prices };
}
function publishedFairProbability(probability) {
  return roundTo(probability, PROB_PLACES);
}
function checkInputs(decimal, fairProbability) {
  if (!isValidDecimal(decimal)) throw new RangeError(`Decimal odds must be finite and > 1, got ${decimal}`);
  if (!(fairProbability > 0 && fairProbability <= 1))
    throw new RangeError(`A fair probability must be in (0, 1], got ${fairProbability}`);
}

// src/domain/random.ts
function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = state + 1831565813 >>> 0;
    let t = state;
    t = Math.imul(t ^ t >>> 15, t | 1);
    t ^= t + Math.imul(t ^ t >>> 7, t | 61);
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  };
}
function gaussian(random) {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

// src/domain/mvn.ts
var SQRT_2PI = Math.sqrt(2 * Math.PI);
function normalCdf(x) {
  const z = Math.abs(x);
  let tail;
  if (z > 37) tail = 0;
  else {
    const e = Math.exp(-z * z / 2);
    if (z < 7.07106781186547) {
      let num = 0.0352624965998911 * z + 0.700383064443688;
      num = num * z + 6.37396220353165;
      num = num * z + 33.912866078383;
      num = num * z + 112.079291497871;
      num = num * z + 221.213596169931;
      num = num * z + 220.206867912376;
      let den = 0.0883883476483184 * z + 1.75566716318264;
      den = den * z + 16.064177579207;
      den = den * z + 86.7807322029461;
      den = den * z + 296.564248779674;
      den = den * z + 637.333633378831;
      den = den * z + 793.826512519948;
      den = den * z + 440.413735824752;
      tail = e * num / den;
    } else {
      tail = e / (z + 1 / (z + 2 / (z + 3 / (z + 4 / (z + 0.65))))) / SQRT_2PI;
    }
  }
  return x > 0 ? 1 - tail : tail;
}
var A = [
  -39.69683028665376,
  220.9460984245205,
  -275.9285104469687,
  138.357751867269,
  -30.66479806614716,
  2.506628277459239
];
var B = [
  -54.47609879822406,
  161.5858368580409,
  -155.6989798598866,
  66.80131188771972,
  -13.28068155288572
];
var C = [
  -0.007784894002430293,
  -0.3223964580411365,
  -2.400758277161838,
  -2.549732539343734,
  4.374664141464968,
  2.938163982698783
];
var D = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
var P_LOW = 0.02425;
function acklam(p2) {
  if (p2 < P_LOW) {
    const q2 = Math.sqrt(-2 * Math.log(p2));
    return (((((C[0] * q2 + C[1]) * q2 + C[2]) * q2 + C[3]) * q2 + C[4]) * q2 + C[5]) / ((((D[0] * q2 + D[1]) * q2 + D[2]) * q2 + D[3]) * q2 + 1);
  }
  if (p2 > 1 - P_LOW) {
    const q2 = Math.sqrt(-2 * Math.log(1 - p2));
    return -(((((C[0] * q2 + C[1]) * q2 + C[2]) * q2 + C[3]) * q2 + C[4]) * q2 + C[5]) / ((((D[0] * q2 + D[1]) * q2 + D[2]) * q2 + D[3]) * q2 + 1);
  }
  const q = p2 - 0.5;
  const r = q * q;
  return (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1);
}
function normalQuantile(p2) {
  if (!(p2 >= 0 && p2 <= 1)) return Number.NaN;
  if (p2 === 0) return Number.NEGATIVE_INFINITY;
  if (p2 === 1) return Number.POSITIVE_INFINITY;
  const x = acklam(p2);
  const e = x > 0 ? 1 - p2 - normalCdf(-x) : normalCdf(x) - p2;
  const u = e * SQRT_2PI * Math.exp(x * x / 2);
  return x - u / (1 + x * u / 2);
}
function gaussLegendre(n2) {
  const half = n2 / 2;
  const x = new Float64Array(half);
  const w = new Float64Array(half);
  for (let i = 0; i < half; i += 1) {
    let root = Math.cos(Math.PI * (i + 0.75) / (n2 + 0.5));
    let derivative = 0;
    for (let iteration = 0; iteration < 100; iteration += 1) {
      let p0 = 1;
      let p1 = root;
      for (let k = 2; k <= n2; k += 1) {
        const p2 = ((2 * k - 1) * root * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      derivative = n2 * (root * p1 - p0) / (root * root - 1);
      const step = p1 / derivative;
      root -= step;
      if (Math.abs(step) < 1e-16) break;
    }
    x[i] = root;
    w[i] = 2 / ((1 - root * root) * derivative * derivative);
  }
  return { x, w };
}
var GL = [gaussLegendre(6), gaussLegendre(12), gaussLegendre(20)];
var MAX_DIMENSION = 20;
var MAX_SHIFTS = 64;
var SHIFT_TABLE = (() => {
  const random = seededRandom(1587282215);
  return Float64Array.from({ length: MAX_SHIFTS * MAX_DIMENSION }, () => random());
})();
var phi = (x) => Number.isFinite(x) ? Math.exp(-x * x / 2) / SQRT_2PI : 0;
function hermitePieces(first, end, h, origin, at) {
  const pieces = new Float64Array(4 * end);
  for (let i = first; i < end; i += 1) {
    const [v0, s0] = at(origin + i * h);
    const [v1, s1] = at(origin + (i + 1) * h);
    const m0 = s0 * h;
    const m1 = s1 * h;
    pieces[4 * i] = v0;
    pieces[4 * i + 1] = m0;
    pieces[4 * i + 2] = 3 * (v1 - v0) - 2 * m0 - m1;
    pieces[4 * i + 3] = 2 * (v0 - v1) + m0 + m1;
  }
  return pieces;
}
var CDF_STEP = 64;
var CDF_LIMIT = 9;
var CDF_PIECES = hermitePieces(0, 2 * CDF_LIMIT * CDF_STEP, 1 / CDF_STEP, -CDF_LIMIT, (x) => [
  normalCdf(x),
  phi(x)
]);
var QUANTILE_STEP = 2048;
var QUANTILE_FIRST = Math.ceil(P_LOW * QUANTILE_STEP);
var QUANTILE_END = Math.floor((1 - P_LOW) * QUANTILE_STEP);
var QUANTILE_PIECES = hermitePieces(QUANTILE_FIRST, QUANTILE_END, 1 / QUANTILE_STEP, 0, (u) => {
  const x = normalQuantile(u);
  return [x, 1 / phi(x)];
});

// src/domain/soccer-goals.ts
var GOALS_GRID_MAX = 15;
var SIZE = GOALS_GRID_MAX + 1;

// src/domain/sgp.ts
var SGP_GAME_PRIORS = {
  nba: {
    sigmaMargin: 12,
    sigmaTotal: 18,
    meanTotal: 228,
    layout: "quarters",
    source: "margin: 12 points about a prediction (Sagarin, quoted in Winston, Mathletics ch. 43); total: ~18 points about the closing total (commonly quoted; with the margin it gives a team-score deviation of 10.8, against 10.4\u201310.6 measured about Pinnacle's implied team totals, BetLabs 2017); total: 2023\u201324 average ~228"
  },
  ncaab: {
    sigmaMargin: 10.5,
    sigmaTotal: 16,
    meanTotal: 145,
    layout: "halves",
    source: "margin: 10 points about a prediction (Sagarin, in Winston, Mathletics), 10.5 about a closing spread; total: ~16 (commonly quoted); Division I averages ~72 points a team"
  },
  nfl: {
    sigmaMargin: 13.9,
    sigmaTotal: 13.4,
    meanTotal: 44,
    layout: "quarters",
    source: "margin: 13.86 about the point spread (Stern 1991, The American Statistician 45(3)); total: 13.4 about the closing total over 7,276 games (nflverse, nflanalytic.com); recent seasons average ~44 points"
  },
  mlb: {
    sigmaMargin: 4.2,
    sigmaTotal: 4.4,
    meanTotal: 8.8,
    layout: "innings",
    source: "runs are over-dispersed (negative binomial, variance \u2248 2 \xD7 mean): total ~4.4, margin ~4.2 about the lines; recent seasons average ~8.8 runs a game (prior)"
  },
  nhl: {
    sigmaMargin: Math.sqrt(6.2),
    sigmaTotal: Math.sqrt(6.2),
    meanTotal: 6.2,
    layout: "periods",
    source: "independent Poisson goals (variance = mean) at ~6.2 goals a game (recent seasons, empty-net goals in)"
  },
  epl: {
    sigmaMargin: Math.sqrt(2.9),
    sigmaTotal: Math.sqrt(2.9),
    meanTotal: 2.9,
    layout: "halves",
    source: "independent Poisson goals (Maher 1982) at ~2.9 goals a match (Premier League, recent seasons)"
  },
  mls: {
    sigmaMargin: Math.sqrt(3),
    sigmaTotal: Math.sqrt(3),
    meanTotal: 3,
    layout: "halves",
    source: "independent Poisson goals (Maher 1982) at ~3.0 goals a match (MLS, recent seasons)"
  }
};
var LAYOUTS = {
  quarters: {
    segments: ["q1", "q2", "q3", "q4"].map((key) => ({ key, share: 0.25 })),
    periods: {
      full: ["q1", "q2", "q3", "q4"],
      h1: ["q1", "q2"],
      h2: ["q3", "q4"],
      q1: ["q1"],
      q2: ["q2"],
      q3: ["q3"],
      q4: ["q4"]
    }
  },
  halves: {
    segments: ["h1", "h2"].map((key) => ({ key, share: 0.5 })),
    periods: { full: ["h1", "h2"], h1: ["h1"], h2: ["h2"] }
  },
  periods: {
    segments: ["p1", "p2", "p3"].map((key) => ({ key, share: 1 / 3 })),
    periods: { full: ["p1", "p2", "p3"], p1: ["p1"], p2: ["p2"], p3: ["p3"] }
  },
  innings: {
    segments: [
      { key: "f5", share: 5 / 9 },
      { key: "i6-9", share: 4 / 9 }
    ],
    periods: { full: ["f5", "i6-9"], f5: ["f5"] }
  }
};
var team = (loading) => ({ loading, on: "team" });
var SGP_STAT_PRIORS = {
  basketball: {
    player_points: team(0.45),
    player_rebounds: team(0.2),
    player_assists: team(0.35),
    player_threes: team(0.3),
    player_points_rebounds_assists: team(0.45),
    player_double_double: team(0.25)
  },
  football: {
    player_pass_yds: team(0.5),
    player_pass_tds: team(0.55),
    player_rush_yds: team(0.3),
    player_reception_yds: team(0.35),
    player_receptions: team(0.3),
    player_anytime_td: team(0.4)
  },
  baseball: {
    batter_hits: team(0.35),
    batter_total_bases: team(0.4),
    pitcher_strikeouts: { loading: -0.25, on: "opponent" }
  },
  hockey: {
    player_points: team(0.5),
    player_shots_on_goal: team(0.2),
    player_goal_scorer_anytime: team(0.45)
  },
  soccer: {
    player_shots: team(0.25),
    player_shots_on_target: team(0.3),
    player_goal_scorer_anytime: team(0.45)
  }
};
var SGP_DEFAULT_PLAYER_CORRELATION = 0.2;
var statsOf = (league) => PROP_CATALOGUE[league].map((def) => def.key);
function correlationTable(stats, pairs2) {
  const matrix = stats.map(
    (a) => stats.map((b) => a === b ? 1 : SGP_DEFAULT_PLAYER_CORRELATION)
  );
  for (const [a, b, r] of pairs2) {
    const i = stats.indexOf(a);
    const j = stats.indexOf(b);
    matrix[i][j] = r;
    matrix[j][i] = r;
  }
  return { stats, matrix };
}
var SGP_PLAYER_CORRELATIONS = {
  basketball: correlationTable(statsOf("nba"), [
    ["player_points", "player_points_rebounds_assists", 0.9],
    ["player_points", "player_threes", 0.6],
    ["player_points", "player_rebounds", 0.25],
    ["player_points", "player_assists", 0.3],
    ["player_points", "player_double_double", 0.35],
    ["player_rebounds", "player_points_rebounds_assists", 0.5],
    ["player_assists", "player_points_rebounds_assists", 0.5],
    ["player_threes", "player_points_rebounds_assists", 0.5],
    ["player_rebounds", "player_double_double", 0.6],
    ["player_assists", "player_double_double", 0.4],
    ["player_points_rebounds_assists", "player_double_double", 0.55],
    ["player_rebounds", "player_threes", 0.1]
  ]),
  football: correlationTable(statsOf("nfl"), [
    ["player_pass_yds", "player_pass_tds", 0.6],
    ["player_reception_yds", "player_receptions", 0.75],
    ["player_reception_yds", "player_anytime_td", 0.35],
    ["player_receptions", "player_anytime_td", 0.3],
    ["player_rush_yds", "player_anytime_td", 0.35]
  ]),
  baseball: correlationTable(statsOf("mlb"), [
    ["batter_hits", "batter_total_bases", 0.85],
    ["batter_hits", "pitcher_strikeouts", 0],
    ["batter_total_bases", "pitcher_strikeouts", 0]
  ]),
  hockey: correlationTable(statsOf("nhl"), [
    ["player_points", "player_goal_scorer_anytime", 0.7],
    ["player_shots_on_goal", "player_goal_scorer_anytime", 0.4],
    ["player_points", "player_shots_on_goal", 0.35]
  ]),
  soccer: correlationTable(statsOf("epl"), [
    ["player_shots", "player_shots_on_target", 0.75],
    ["player_shots", "player_goal_scorer_anytime", 0.4],
    ["player_shots_on_target", "player_goal_scorer_anytime", 0.55]
  ])
};
for (const [sport, table2] of Object.entries(SGP_PLAYER_CORRELATIONS)) {
  if (!isPositiveDefinite(table2.matrix)) throw new Error(`The ${sport} player correlation table is not PSD`);
}
function isPositiveDefinite(matrix) {
  const n2 = matrix.length;
  const l = Array.from({ length: n2 }, () => new Array(n2).fill(0));
  for (let i = 0; i < n2; i += 1) {
    for (let j = 0; j <= i; j += 1) {
      let s = matrix[i][j];
      for (let k = 0; k < j; k += 1) s -= l[i][k] * l[j][k];
      if (i === j) {
        if (!(s > 0)) return false;
        l[i][i] = Math.sqrt(s);
      } else l[i][j] = s / l[j][j];
    }
  }
  return true;
}

// src/domain/wagers.ts
var DEFAULT_TOTAL_CENTS = 2e4;
function defaultSplit(decimals, total2 = DEFAULT_TOTAL_CENTS) {
  const weights = decimals.map((d) => 1 / d);
  const sum2 = weights.reduce((a, b) => a + b, 0);
  const stakes = weights.map((w) => Math.round(total2 * w / sum2));
  const assigned = stakes.slice(0, -1).reduce((a, b) => a + b, 0);
  if (stakes.length > 0) stakes[stakes.length - 1] = total2 - assigned;
  return stakes;
}
var usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

// src/domain/middles.ts
var MIDDLE_EV_PLACES = 3;
var MIDDLE_MIN_BOOKS = 3;
var TAIL_SIGMAS = 8;
function probabilityOf(distribution, x) {
  return distribution.probabilities[x - distribution.min] ?? 0;
}
function normalise(min, weights) {
  let first = 0;
  while (first < weights.length - 1 && weights[first] === 0) first += 1;
  let last = weights.length - 1;
  while (last > first && weights[last] === 0) last -= 1;
  let sum2 = 0;
  for (let i = first; i <= last; i += 1) sum2 += weights[i];
  if (!(sum2 > 0)) throw new RangeError("A distribution needs some mass");
  const probabilities = new Array(last - first + 1);
  for (let i = first; i <= last; i += 1) probabilities[i - first] = weights[i] / sum2;
  return { min: min + first, probabilities };
}
function discretisedNormal(mean, sigma, options = {}) {
  if (!Number.isFinite(mean) || !(sigma > 0)) throw new RangeError(`Bad normal (${mean}, ${sigma})`);
  let min = Math.floor(mean - TAIL_SIGMAS * sigma);
  if (options.floor !== void 0) min = Math.max(min, options.floor);
  const max = Math.max(min, Math.ceil(mean + TAIL_SIGMAS * sigma));
  const weights = new Array(max - min + 1);
  let below = normalCdf((min - 0.5 - mean) / sigma);
  for (let k = min; k <= max; k += 1) {
    const above = normalCdf((k + 0.5 - mean) / sigma);
    weights[k - min] = options.noZero && k === 0 ? 0 : above - below;
    below = above;
  }
  return normalise(min, weights);
}
var NFL_DRIVE_MODEL = {
  drives: 11,
  touchdownRate: 0.22,
  fieldGoalRate: 0.16,
  /** A touchdown's points: 7 after a made kick, 6 after a failed try, 8 after a two-point conversion. */
  touchdownPoints: [
    { points: 7, share: 0.91 },
    { points: 6, share: 0.06 },
    { points: 8, share: 0.03 }
  ],
  /** How a regulation tie ends: a field goal (3), a touchdown (6), or still a tie. */
  overtime: { fieldGoal: 0.55, touchdown: 0.4, tie: 0.05 },
  /** The least expected score of a team (the scale is clamped). */
  minTeamMean: 3
};
var NFL_POINTS_PER_DRIVE = NFL_DRIVE_MODEL.touchdownRate * NFL_DRIVE_MODEL.touchdownPoints.reduce((sum2, t) => sum2 + t.points * t.share, 0) + NFL_DRIVE_MODEL.fieldGoalRate * 3;
var NFL_SCORING_POINTS = [3, ...NFL_DRIVE_MODEL.touchdownPoints.map((t) => t.points)];
var nflScoringChances = new Float64Array(NFL_SCORING_POINTS.length);
var nflScoreBuffer = new Float64Array(NFL_DRIVE_MODEL.drives * 8 + 1);
var nflSums = new Float64Array(0);
function nflTeamScore(mean) {
  const m = NFL_DRIVE_MODEL;
  let scale = Math.max(m.minTeamMean, mean) / (m.drives * NFL_POINTS_PER_DRIVE);
  scale = Math.min(scale, 0.95 / (m.touchdownRate + m.fieldGoalRate));
  const td = m.touchdownRate * scale;
  const fg = m.fieldGoalRate * scale;
  const chances = nflScoringChances;
  chances[0] = fg;
  for (let t = 0; t < m.touchdownPoints.length; t += 1) chances[t + 1] = td * m.touchdownPoints[t].share;
  const kinds = NFL_SCORING_POINTS.length;
  const blank = 1 - td - fg;
  let score = new Float64Array(m.drives * 8 + 1);
  let next = nflScoreBuffer;
  score[0] = 1;
  let top = 0;
  for (let i = 0; i < m.drives; i += 1) {
    next.fill(0, 0, top + 9);
    for (let a = 0; a <= top; a += 1) {
      const p2 = score[a];
      if (p2 === 0) continue;
      next[a] += p2 * blank;
      for (let k = 0; k < kinds; k += 1) next[a + NFL_SCORING_POINTS[k]] += p2 * chances[k];
    }
    top += 8;
    const done = next;
    next = score;
    score = done;
  }
  nflScoreBuffer = next;
  return score;
}
function nflScoreDistributions(expectedMargin, expectedTotal) {
  const homeMean = Math.max(NFL_DRIVE_MODEL.minTeamMean, (expectedTotal + expectedMargin) / 2);
  const awayMean = Math.max(NFL_DRIVE_MODEL.minTeamMean, (expectedTotal - expectedMargin) / 2);
  const home = nflTeamScore(homeMean);
  const away = nflTeamScore(awayMean);
  const homeShare = homeMean / (homeMean + awayMean);
  const top = home.length - 1 + 6;
  if (nflSums.length < 2 * (2 * top + 1)) nflSums = new Float64Array(2 * (2 * top + 1));
  const margin = nflSums.subarray(0, 2 * top + 1).fill(0);
  const total2 = nflSums.subarray(2 * top + 1, 2 * (2 * top + 1)).fill(0);
  const ot = NFL_DRIVE_MODEL.overtime;
  const awayLength = away.length;
  for (let h = 0; h < home.length; h += 1) {
    const ph = home[h];
    if (ph === 0) continue;
    const below = Math.min(h, awayLength);
    for (let a = 0; a < below; a += 1) margin[h - a + top] += ph * away[a];
    for (let a = 0; a < below; a += 1) total2[h + a] += ph * away[a];
    if (h < awayLength) {
      const p2 = ph * away[h];
      if (p2 !== 0) {
        margin[top] += p2 * ot.tie;
        total2[h + h] += p2 * ot.tie;
        margin[top + 3] += p2 * ot.fieldGoal * homeShare;
        margin[top - 3] += p2 * ot.fieldGoal * (1 - homeShare);
        total2[h + h + 3] += p2 * ot.fieldGoal;
        margin[top + 6] += p2 * ot.touchdown * homeShare;
        margin[top - 6] += p2 * ot.touchdown * (1 - homeShare);
        total2[h + h + 6] += p2 * ot.touchdown;
      }
    }
    for (let a = h + 1; a < awayLength; a += 1) margin[h - a + top] += ph * away[a];
    for (let a = h + 1; a < awayLength; a += 1) total2[h + a] += ph * away[a];
  }
  return { margin: normalise(-top, margin), total: normalise(0, total2) };
}
var NFL_KEY_FACTORS = /* @__PURE__ */ new Map([
  [3, 2.0336],
  [4, 0.9929],
  [6, 1.0043],
  [7, 1.666],
  [10, 1.253],
  [14, 1.2028]
]);
function withKeyFactors(margin, factors) {
  const weights = margin.probabilities.slice();
  for (const [k, factor] of factors) {
    for (const x of k === 0 ? [0] : [k, -k]) {
      const i = x - margin.min;
      if (i >= 0 && i < weights.length) weights[i] = weights[i] * factor;
    }
  }
  return normalise(margin.min, weights);
}
function nflCalibratedDistributions(expectedMargin, expectedTotal) {
  const { margin, total: total2 } = nflScoreDistributions(expectedMargin, expectedTotal);
  return { margin: withKeyFactors(margin, NFL_KEY_FACTORS), total: total2 };
}
function middleModel(league) {
  return league === "nfl" ? "nfl-drives" : "normal";
}
function scoreDistribution(league, variable, centre) {
  if (league === "nfl") return nflCalibratedDistributions(centre.margin, centre.total)[variable];
  const { mean, sigma, floor, noZero } = normalModel(league, variable, centre);
  return discretisedNormal(mean, sigma, floor === void 0 ? { noZero } : { floor });
}
function normalModel(league, variable, centre) {
  const prior = SGP_GAME_PRIORS[league];
  return variable === "margin" ? { mean: centre.margin, sigma: prior.sigmaMargin, floor: void 0, noZero: !LEAGUES[league].hasDraws } : { mean: centre.total, sigma: prior.sigmaTotal, floor: 0, noZero: false };
}
function normalMiddleChances(high, low, mean, sigma, options = {}) {
  if (!isMiddleLines(high, low)) throw new RangeError(`Not a middle: high ${high}, low ${low}`);
  if (!Number.isFinite(mean) || !(sigma > 0)) throw new RangeError(`Bad normal (${mean}, ${sigma})`);
  let min = Math.floor(mean - TAIL_SIGMAS * sigma);
  if (options.floor !== void 0) min = Math.max(min, options.floor);
  const max = Math.max(min, Math.ceil(mean + TAIL_SIGMAS * sigma));
  const zero = options.noZero && min <= 0 && max >= 0 ? upperCdf(0, mean, sigma) - upperCdf(-1, mean, sigma) : 0;
  const sum2 = upperCdf(max, mean, sigma) - upperCdf(min - 1, mean, sigma) - zero;
  if (!(sum2 > 0)) throw new RangeError("A distribution needs some mass");
  const middle = normalMass(Math.floor(high) + 1, Math.ceil(low) - 1, mean, sigma, min, max, zero) / sum2;
  const pushHigh = Number.isInteger(high) ? normalMass(high, high, mean, sigma, min, max, zero) / sum2 : 0;
  const pushLow = Number.isInteger(low) ? normalMass(low, low, mean, sigma, min, max, zero) / sum2 : 0;
  return { middle, pushHigh, pushLow, miss: Math.max(0, 1 - middle - pushHigh - pushLow) };
}
function upperCdf(k, mean, sigma) {
  return normalCdf((k + 0.5 - mean) / sigma);
}
function normalMass(from, to, mean, sigma, min, max, zero) {
  const a = Math.max(from, min);
  const b = Math.min(to, max);
  if (a > b) return 0;
  return Math.max(0, upperCdf(b, mean, sigma) - upperCdf(a - 1, mean, sigma) - (a <= 0 && b >= 0 ? zero : 0));
}
function modelMiddleChances(league, variable, centre, high, low, nflDistribution) {
  if (league === "nfl")
    return middleChances(high, low, nflDistribution ?? scoreDistribution(league, variable, centre));
  const { mean, sigma, floor, noZero } = normalModel(league, variable, centre);
  return normalMiddleChances(high, low, mean, sigma, { floor, noZero });
}
function middleGap(high, low) {
  if (!(Number.isInteger(high * 2) && Number.isInteger(low * 2))) return [];
  const gap = [];
  for (let x = Math.floor(high) + 1; x < low; x += 1) gap.push(x);
  return gap;
}
function isMiddle(high, low) {
  return isMiddleLines(high, low);
}
function isMiddleLines(high, low) {
  return Number.isInteger(high * 2) && Number.isInteger(low * 2) && Math.floor(high) + 1 < low;
}
function middleChances(high, low, distribution) {
  if (!isMiddleLines(high, low)) throw new RangeError(`Not a middle: high ${high}, low ${low}`);
  let middle = 0;
  for (let x = Math.floor(high) + 1; x < low; x += 1) middle += probabilityOf(distribution, x);
  const pushHigh = Number.isInteger(high) ? probabilityOf(distribution, high) : 0;
  const pushLow = Number.isInteger(low) ? probabilityOf(distribution, low) : 0;
  return { middle, pushHigh, pushLow, miss: Math.max(0, 1 - middle - pushHigh - pushLow) };
}
function middleReturns(highDecimal, lowDecimal) {
  if (!(highDecimal > 1 && lowDecimal > 1)) throw new RangeError("Decimal odds must be > 1");
  const h = highDecimal * lowDecimal / (highDecimal + lowDecimal);
  const wHigh = lowDecimal / (highDecimal + lowDecimal);
  return {
    hit: 2 * h - 1,
    miss: h - 1,
    pushHigh: wHigh + h - 1,
    pushLow: 1 - wHigh + h - 1,
    stakeShareHigh: wHigh
  };
}
function middleEv(highDecimal, lowDecimal, chances) {
  const r = middleReturns(highDecimal, lowDecimal);
  return chances.middle * r.hit + chances.pushHigh * r.pushHigh + chances.pushLow * r.pushLow + chances.miss * r.miss;
}
function publishedChances(chances) {
  const middle = roundTo(chances.middle, PROB_PLACES);
  const pushHigh = roundTo(chances.pushHigh, PROB_PLACES);
  const pushLow = roundTo(chances.pushLow, PROB_PLACES);
  return { middle, pushHigh, pushLow, miss: roundTo(1 - middle - pushHigh - pushLow, PROB_PLACES) };
}
function publishedPct(fraction) {
  return floorTo(fraction * 100, MIDDLE_EV_PLACES) + 0;
}
function middleStakesCents(totalCents, highDecimal, lowDecimal) {
  if (!Number.isSafeInteger(totalCents) || totalCents < 0)
    throw new RangeError(`A total is a whole number of cents >= 0, got ${totalCents}`);
  const [high, low] = defaultSplit([highDecimal, lowDecimal], totalCents);
  return [high, low];
}

// src/domain/prop-middles.ts
var poisson = { kind: "poisson" };
var normal = (dispersion, floor) => ({
  kind: "normal",
  dispersion,
  floor
});
var PROP_STAT_MODELS = {
  basketball: {
    player_points: normal(1.4, 0),
    player_rebounds: normal(1.1, 0),
    player_assists: normal(1.1, 0),
    player_points_rebounds_assists: normal(1.6, 0),
    player_threes: poisson
  },
  football: {
    player_pass_yds: normal(4, void 0),
    player_rush_yds: normal(3.5, void 0),
    player_reception_yds: normal(3.5, void 0),
    player_receptions: poisson,
    player_pass_tds: poisson
  },
  baseball: {
    batter_hits: poisson,
    batter_total_bases: poisson,
    pitcher_strikeouts: poisson
  },
  hockey: {
    player_points: poisson,
    player_shots_on_goal: poisson
  },
  soccer: {
    player_shots: poisson,
    player_shots_on_target: poisson
  }
};
function propStatModel(league, stat) {
  return PROP_STAT_MODELS[LEAGUES[league].sport][stat];
}
function propModelName(model) {
  return model.kind === "poisson" ? "prop-poisson" : "prop-normal";
}
function propSigma(model, mean) {
  return Math.max(0.1, model.dispersion * Math.sqrt(Math.max(mean, 0)));
}
function poissonCdf(k, lambda) {
  if (k < 0) return 0;
  let term = Math.exp(-lambda);
  let sum2 = term;
  for (let i = 1; i <= k; i += 1) {
    term *= lambda / i;
    sum2 += term;
  }
  return Math.min(1, sum2);
}
function poissonPmf(k, lambda) {
  if (k < 0 || !Number.isInteger(k)) return 0;
  let term = Math.exp(-lambda);
  for (let i = 1; i <= k; i += 1) term *= lambda / i;
  return term;
}
function poissonMass(a, b, lambda) {
  const from = Math.max(0, a);
  if (b < from) return 0;
  return Math.max(0, poissonCdf(b, lambda) - poissonCdf(from - 1, lambda));
}
function propMeanFor(model, line, pOver) {
  if (!(pOver > 0 && pOver < 1) || !Number.isFinite(line) || line < 0) return void 0;
  const threshold = Math.floor(line) + 0.5;
  if (model.kind === "normal") {
    const kz = model.dispersion * normalQuantile(pOver);
    const root = (kz + Math.sqrt(kz * kz + 4 * threshold)) / 2;
    const mean = root * root;
    return Number.isFinite(mean) && mean > 0 ? mean : void 0;
  }
  return poissonMeanFor(Math.floor(line) + 1, pOver);
}
function poissonMeanFor(need, p2) {
  let lo = 0;
  let hi = Math.max(1, need * 4 + 20);
  if (1 - poissonCdf(need - 1, hi) < p2) return void 0;
  let lambda = Math.max(need - 0.5, 0.5);
  for (let i = 0; i < 100; i += 1) {
    const f = 1 - poissonCdf(need - 1, lambda) - p2;
    if (Math.abs(f) < 1e-13) return lambda;
    if (f < 0) lo = lambda;
    else hi = lambda;
    const slope = poissonPmf(need - 1, lambda);
    let next = slope > 0 ? lambda - f / slope : Number.NaN;
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (Math.abs(next - lambda) < 1e-12 * Math.max(1, lambda)) return next;
    lambda = next;
  }
  return lambda;
}
function propCentre(model, quotes, minBooks = MIDDLE_MIN_BOOKS) {
  const books = /* @__PURE__ */ new Set();
  for (const quote of quotes) if (quote.over > 1 && quote.under > 1) books.add(quote.book);
  if (books.size < minBooks) return void 0;
  books.clear();
  const estimates = [];
  for (const quote of quotes) {
    if (!(quote.over > 1 && quote.under > 1)) continue;
    const pOver = 1 / quote.over / (1 / quote.over + 1 / quote.under);
    const mean = propMeanFor(model, quote.line, pOver);
    if (mean === void 0) continue;
    books.add(quote.book);
    estimates.push(mean);
  }
  if (books.size < minBooks) return void 0;
  estimates.sort((a, b) => a - b);
  const mid = estimates.length >> 1;
  return estimates.length % 2 ? estimates[mid] : (estimates[mid - 1] + estimates[mid]) / 2;
}
function propMiddleChances(model, centre, high, low) {
  if (!isMiddleLines(high, low)) throw new RangeError(`Not a middle: high ${high}, low ${low}`);
  if (model.kind === "normal")
    return normalMiddleChances(high, low, centre, propSigma(model, centre), { floor: model.floor });
  const middle = poissonMass(Math.floor(high) + 1, Math.ceil(low) - 1, centre);
  const pushHigh = Number.isInteger(high) ? poissonPmf(high, centre) : 0;
  const pushLow = Number.isInteger(low) ? poissonPmf(low, centre) : 0;
  return { middle, pushHigh, pushLow, miss: Math.max(0, 1 - middle - pushHigh - pushLow) };
}

// src/engine/values.ts
var NO_EV = { rows: [], fair: false, validUntil: Infinity };
function judgeEv(store, event, market, at, instant, limits, minBooks = EV_MIN_BOOKS) {
  const maxAge = event.live ? limits.maxAgeLiveMs : limits.maxAgePreMatchMs;
  const quotes = [];
  let validUntil = Infinity;
  const ways = market.outcomes.length;
  for (let outcome = 0; outcome < ways; outcome += 1) {
    for (const newest of pricesOf(market, outcome)) {
      const version = at === void 0 ? newest : store.versionAt(newest, at, true);
      if (!version || !isUsable(version, instant, maxAge)) continue;
      quotes.push({ book: version.book, outcome, decimal: version.decimal, version });
      if (version.updatedAt + maxAge + 1 < validUntil) validUntil = version.updatedAt + maxAge + 1;
    }
  }
  if (quotes.length < minBooks * 2) return NO_EV;
  const { fair, prices } = marketEv(quotes, ways, { minBooks });
  if (!fair) return NO_EV;
  const rows = [];
  for (const priced of prices) {
    const version = priced.version;
    rows.push(
      evRow(
        event,
        market,
        priced.outcome,
        version,
        priced.fairProbability,
        fair.books,
        priced.evPct,
        instant
      )
    );
  }
  return { rows, fair: true, validUntil };
}
function evRow(event, market, outcomeIndex, version, fairProbability, books, evPct2, instant, knownId) {
  const book = version.book;
  const american = version.american;
  const decimal = version.decimal;
  const updatedAt = version.updatedAt;
  const desktop = version.links.desktop;
  const mobile = version.links.mobile;
  const build = () => {
    const outcome = market.outcomes[outcomeIndex];
    return {
      id: `${market.key}|${outcome}|${book}`,
      event: toEventDto(event),
      market: {
        key: market.key,
        type: market.spec.type,
        period: market.spec.period,
        point: market.spec.point,
        label: specLabel(market.spec, market.player)
      },
      outcome: { outcome, name: specOutcomeLabel(event, market.spec, outcome, market.player) },
      book,
      price: {
        american: formatAmerican(american),
        decimal,
        updated_at: new Date(updatedAt).toISOString(),
        age_seconds: Math.max(0, Math.floor((instant - updatedAt) / 1e3)),
        links: { desktop, mobile }
      },
      fair: {
        probability: publishedFairProbability(fairProbability),
        decimal: floorTo(1 / fairProbability, 4),
        american: formatAmericanAtMost(1 / fairProbability),
        books,
        method: EV_METHOD,
        reference: EV_REFERENCE
      },
      ev_pct: publishedEvPct(decimal, fairProbability)
    };
  };
  const row = new LazyEvRow(build);
  row.id = knownId ?? `${market.key}|${market.outcomes[outcomeIndex]}|${book}`;
  row.eventId = event.id;
  row.league = event.league;
  row.live = event.live;
  row.type = market.spec.type;
  row.book = book;
  row.evPct = evPct2;
  row.updatedAt = updatedAt;
  row.decimal = decimal;
  row.american = american;
  row.desktop = desktop;
  row.mobile = mobile;
  row.fairProbability = fairProbability;
  row.fairBooks = books;
  row.startsAt = event.startsAt;
  return row;
}
var LazyEvRow = class {
  constructor(build) {
    this.build = build;
  }
  build;
  id = "";
  eventId = "";
  league = "";
  live = false;
  type = "";
  book = "";
  evPct = 0;
  updatedAt = 0;
  decimal = 0;
  american = 0;
  desktop = null;
  mobile = null;
  fairProbability = 0;
  fairBooks = 0;
  startsAt = 0;
  /** The scanner's marks (`Tracked`). */
  held = false;
  mark = 0;
  replaces = void 0;
  built;
  get dto() {
    return this.built ??= this.build();
  }
};
function evRowChanged(a, b) {
  return a.decimal !== b.decimal || a.american !== b.american || a.desktop !== b.desktop || a.mobile !== b.mobile || a.fairProbability !== b.fairProbability || a.fairBooks !== b.fairBooks || a.live !== b.live || a.startsAt !== b.startsAt;
}
var BEST_PER_LINE = 2;
var STAKE_EXAMPLE_CENTS = 1e4;
function isMiddleMarket(market) {
  const spec = market.spec;
  return spec.period === "full" && (spec.type === "spread" || spec.type === "total") && spec.point !== null;
}
function isPropMiddleMarket(market) {
  const spec = market.spec;
  if (spec.type !== "prop" || spec.point === null) return false;
  const league = market.owner.event.league;
  return Object.prototype.hasOwnProperty.call(LEAGUES, league) && propStatModel(league, spec.stat) !== void 0;
}
function propFamilyKey(spec) {
  return `${spec.playerId}|${spec.stat}|${spec.period}`;
}
function propFamilyMiddles(store, event, markets, at, instant, limits, minBooks = MIDDLE_MIN_BOOKS) {
  const rows = [];
  const first = markets[0];
  if (first === void 0 || !Object.prototype.hasOwnProperty.call(LEAGUES, event.league))
    return { rows, validUntil: Infinity };
  const spec = first.spec;
  const model = propStatModel(event.league, spec.stat);
  if (model === void 0 || !someMiddleLines(markets)) return { rows, validUntil: Infinity };
  const maxAge = event.live ? limits.maxAgeLiveMs : limits.maxAgePreMatchMs;
  const quotes = [];
  let validUntil = Infinity;
  for (const market of markets) {
    const until = usableQuotes(store, market, "total", at, instant, maxAge, quotes);
    if (until < validUntil) validUntil = until;
  }
  const centre = propCentre(model, propLineQuotes(quotes), minBooks);
  if (centre === void 0) return { rows, validUntil: Infinity };
  pairs(quotes, (high, low) => {
    const chances = propMiddleChances(model, centre, high.line, low.line);
    rows.push(propMiddleRow(event, spec, model, centre, chances, high, low, instant));
  });
  return { rows, validUntil };
}
function someMiddleLines(markets) {
  let low = Infinity;
  let high = -Infinity;
  for (const market of markets) {
    const point = market.spec.point;
    if (point < low) low = point;
    if (point > high) high = point;
  }
  return isMiddleLines(low, high);
}
function propLineQuotes(quotes) {
  return lineQuotes(quotes).map((q) => ({ book: q.book, line: q.line, over: q.high, under: q.low }));
}
function propMiddleRow(event, spec, model, centre, chances, high, low, instant) {
  const id = `${event.id}|prop|${spec.period}|${spec.playerId}|${spec.stat}|${high.book}:${high.line}|${low.book}:${low.line}`;
  return new LazyMiddleRow(
    id,
    event,
    "stat",
    instant,
    high,
    low,
    publishedChances(chances),
    middleEv(high.decimal, low.decimal, chances),
    centre,
    propModelName(model)
  );
}
function middleRowChanged(a, b) {
  return a.publishedEvPct !== b.publishedEvPct || a.probability !== b.probability || a.live !== b.live || a.pushHigh !== b.pushHigh || a.pushLow !== b.pushLow || a.startsAt !== b.startsAt || roundTo(a.centre, 2) !== roundTo(b.centre, 2) || quoteChanged(a.high, b.high) || quoteChanged(a.low, b.low);
}
function quoteChanged(a, b) {
  return a.decimal !== b.decimal || a.american !== b.american || a.desktop !== b.desktop || a.mobile !== b.mobile;
}
function defaultTotal(league) {
  return SGP_GAME_PRIORS[league].meanTotal;
}
function sideOf2(market, outcome) {
  const key = market.outcomes[outcome];
  if (key === "home" || key === "over") return "high";
  if (key === "away" || key === "under") return "low";
  return void 0;
}
function usableQuotes(store, market, variable, at, instant, maxAge, out) {
  const point = market.spec.point;
  const line = variable === "margin" ? -point + 0 : point;
  let validUntil = Infinity;
  market.quoted.forEach((_, outcome) => {
    for (const newest of pricesOf(market, outcome)) {
      const version = at === void 0 ? newest : store.versionAt(newest, at, true);
      if (!version || !isUsable(version, instant, maxAge)) continue;
      if (version.updatedAt + maxAge + 1 < validUntil) validUntil = version.updatedAt + maxAge + 1;
      out.push({
        market,
        outcome,
        line,
        book: version.book,
        decimal: version.decimal,
        american: version.american,
        updatedAt: version.updatedAt,
        desktop: version.links.desktop,
        mobile: version.links.mobile
      });
    }
  });
  return validUntil;
}
function lineQuotes(quotes) {
  const byBookLine = /* @__PURE__ */ new Map();
  for (const quote of quotes) {
    const side = sideOf2(quote.market, quote.outcome);
    if (!side) continue;
    const key = `${quote.book}|${quote.line}`;
    let entry = byBookLine.get(key);
    if (!entry) byBookLine.set(key, entry = { book: quote.book, line: quote.line, high: 0, low: 0 });
    entry[side] = quote.decimal;
  }
  return [...byBookLine.values()].filter((q) => q.high > 1 && q.low > 1);
}
function pairs(quotes, emit) {
  const best = { high: /* @__PURE__ */ new Map(), low: /* @__PURE__ */ new Map() };
  for (const quote of quotes) {
    const side = sideOf2(quote.market, quote.outcome);
    if (!side) continue;
    const list = best[side].get(quote.line) ?? [];
    const sameBook = list.findIndex((q) => q.book === quote.book);
    if (sameBook >= 0) {
      if (list[sameBook].decimal >= quote.decimal) continue;
      list.splice(sameBook, 1);
    }
    list.push(quote);
    list.sort((a, b) => b.decimal - a.decimal || (a.book < b.book ? -1 : 1));
    best[side].set(quote.line, list.slice(0, BEST_PER_LINE));
  }
  for (const [highLine, highs] of best.high) {
    for (const [lowLine, lows] of best.low) {
      if (!isMiddle(highLine, lowLine)) continue;
      for (const high of highs) {
        for (const low of lows) {
          if (high.book !== low.book) emit(high, low);
        }
      }
    }
  }
}
function middleRow(event, variable, centre, chances, high, low, instant, knownId, published = publishedChances(chances), ev = middleEv(high.decimal, low.decimal, chances)) {
  const id = knownId ?? `${event.id}|${variable === "margin" ? "spread" : "total"}|full|${high.book}:${high.line}|${low.book}:${low.line}`;
  return new LazyMiddleRow(id, event, variable, instant, high, low, published, ev, centre);
}
var LazyMiddleRow = class {
  constructor(id, event, variable, instant, high, low, published, ev, centre, propModel) {
    this.id = id;
    this.event = event;
    this.variable = variable;
    this.instant = instant;
    this.high = high;
    this.low = low;
    this.published = published;
    this.ev = ev;
    this.centre = centre;
    this.propModel = propModel;
  }
  id;
  event;
  variable;
  instant;
  high;
  low;
  published;
  ev;
  centre;
  propModel;
  /** The book slots of its two sides (the hot judge finds a pair's last row by them). */
  hs = -1;
  ls = -1;
  /** The scanner's marks (`Tracked`). */
  held = false;
  mark = 0;
  replaces = void 0;
  built;
  get eventId() {
    return this.event.id;
  }
  get league() {
    return this.event.league;
  }
  get live() {
    return this.event.live;
  }
  get startsAt() {
    return this.event.startsAt;
  }
  get type() {
    return this.variable === "margin" ? "spread" : this.variable === "stat" ? "prop" : "total";
  }
  get books() {
    return [this.high.book, this.low.book];
  }
  get evPct() {
    return this.ev * 100;
  }
  get publishedEvPct() {
    return publishedPct(this.ev);
  }
  get probability() {
    return this.published.middle;
  }
  get pushHigh() {
    return this.published.pushHigh;
  }
  get pushLow() {
    return this.published.pushLow;
  }
  get dto() {
    return this.built ??= middleDto(this);
  }
};
function middleDto(row) {
  const { event, variable, instant, published, ev } = row;
  const league = event.league;
  const { high, low } = row;
  const dh = high.decimal;
  const dl = low.decimal;
  const returns = middleReturns(dh, dl);
  const gap = middleGap(high.line, low.line);
  const [highCents, lowCents] = middleStakesCents(STAKE_EXAMPLE_CENTS, dh, dl);
  const returnsPct = {
    middle: publishedPct(returns.hit),
    push_high: publishedPct(returns.pushHigh),
    push_low: publishedPct(returns.pushLow),
    miss: publishedPct(returns.miss)
  };
  const spec = high.market.spec;
  const player = high.market.player;
  const market = spec.type === "prop" ? {
    type: "prop",
    period: spec.period,
    variable: "stat",
    stat: spec.stat,
    label: propStatLabel(player ?? { name: spec.playerId }, spec),
    player: toPlayerDto(player ?? { id: spec.playerId, name: spec.playerId, team: "" }, event)
  } : {
    type: row.type,
    period: "full",
    variable,
    label: row.type === "spread" ? "Spread" : "Total"
  };
  return {
    id: row.id,
    event: toEventDto(event),
    market,
    high: middleSide(event, high, instant, returns.stakeShareHigh),
    low: middleSide(event, low, instant, 1 - returns.stakeShareHigh),
    gap: { from: gap[0], to: gap[gap.length - 1] },
    pushes: {
      high: Number.isInteger(high.line) ? high.line : null,
      low: Number.isInteger(low.line) ? low.line : null
    },
    probability: {
      middle: published.middle,
      push_high: published.pushHigh,
      push_low: published.pushLow,
      miss: published.miss
    },
    returns_pct: returnsPct,
    worst_case_pct: Math.min(returnsPct.middle, returnsPct.push_high, returnsPct.push_low, returnsPct.miss),
    ev_pct: publishedPct(ev),
    stakes: { total_cents: STAKE_EXAMPLE_CENTS, high_cents: highCents, low_cents: lowCents },
    model: row.propModel ?? middleModel(league),
    centre: roundTo(row.centre, 2)
  };
}
function middleSide(event, quote, instant, share) {
  const { market } = quote;
  const outcome = market.outcomes[quote.outcome];
  return {
    book: quote.book,
    market_key: market.key,
    point: market.spec.point,
    outcome: { outcome, name: specOutcomeLabel(event, market.spec, outcome, market.player) },
    line: quote.line,
    price: {
      american: formatAmerican(quote.american),
      decimal: quote.decimal,
      updated_at: new Date(quote.updatedAt).toISOString(),
      age_seconds: Math.max(0, Math.floor((instant - quote.updatedAt) / 1e3)),
      links: { desktop: quote.desktop, mobile: quote.mobile }
    },
    stake_share: roundTo(share, 6)
  };
}
function middleMarkets(state) {
  const markets = [];
  for (const market of state.markets.values()) if (isMiddleMarket(market)) markets.push(market);
  return markets;
}
var NO_ROWS = [];
var usableScratch = new Float64Array(4 * BOOK_COUNT);
var columnScratch = new Float64Array(BOOK_COUNT);
var mediansScratch = new Float64Array(4);
var mostScratch = new Float64Array(4);
var fairScratch = new Float64Array(4);
var marginScratch = new Float64Array(64);
var totalScratch = new Float64Array(64);
var bestScratch = new Int32Array(16);
var rowsScratch = [];
var slotsScratch = [];
var judged = { validUntil: Infinity, slots: NO_ROWS };
function insertionSort(values, length) {
  for (let i = 1; i < length; i += 1) {
    const v = values[i];
    let j = i - 1;
    while (j >= 0 && values[j] > v) {
      values[j + 1] = values[j];
      j -= 1;
    }
    values[j + 1] = v;
  }
}
function judgeEvHot(market, instant, limits, memo, minBooks = EV_MIN_BOOKS) {
  const maxAge = memo.live ? limits.maxAgeLiveMs : limits.maxAgePreMatchMs;
  const ways = memo.ways;
  const n2 = ways * BOOK_COUNT;
  const hot = market.hot;
  const at = market.at;
  if (usableScratch.length < n2) usableScratch = new Float64Array(n2);
  const usable = usableScratch;
  if (mostScratch.length < ways) mostScratch = new Float64Array(ways);
  const most = mostScratch;
  let count = 0;
  let validUntil = Infinity;
  let completeMask = (1 << BOOK_COUNT) - 1;
  for (let o = 0; o < ways; o += 1) {
    let sideMask = 0;
    let best = 0;
    for (let slot = 0; slot < BOOK_COUNT; slot += 1) {
      const i = o * BOOK_COUNT + slot;
      const decimal = hot[at + i];
      const updatedAt = hot[at + n2 + i];
      if (decimal !== 0 && instant - updatedAt <= maxAge) {
        usable[i] = decimal;
        count += 1;
        if (updatedAt + maxAge + 1 < validUntil) validUntil = updatedAt + maxAge + 1;
        if (Number.isFinite(decimal) && decimal > 1) {
          sideMask |= 1 << slot;
          if (decimal > best) best = decimal;
        }
      } else usable[i] = 0;
    }
    completeMask &= sideMask;
    most[o] = best;
  }
  judged.slots = NO_ROWS;
  judged.validUntil = Infinity;
  if (count < minBooks * 2 || ways < 2) return NO_ROWS;
  const complete = popcount(completeMask);
  if (complete < minBooks) return NO_ROWS;
  if (mediansScratch.length < ways) mediansScratch = new Float64Array(ways);
  const medians = mediansScratch;
  for (let o = 0; o < ways; o += 1) {
    let k = 0;
    for (let slot = 0; slot < BOOK_COUNT; slot += 1)
      if (completeMask & 1 << slot) columnScratch[k++] = 1 / usable[o * BOOK_COUNT + slot];
    insertionSort(columnScratch, k);
    const middle = k >> 1;
    medians[o] = k % 2 === 1 ? columnScratch[middle] : (columnScratch[middle - 1] + columnScratch[middle]) / 2;
  }
  if (fairScratch.length < ways) fairScratch = new Float64Array(ways);
  const probabilities = fairScratch;
  const same = memo.fitWays === ways && memo.m0 === medians[0] && memo.m1 === medians[1] && (ways < 3 || memo.m2 === medians[2]);
  if (same) {
    probabilities[0] = memo.f0;
    probabilities[1] = memo.f1;
    if (ways === 3) probabilities[2] = memo.f2;
  } else {
    shinInto(medians, ways, probabilities);
    memo.fitWays = ways <= 3 ? ways : 0;
    memo.m0 = medians[0];
    memo.m1 = medians[1];
    memo.f0 = probabilities[0];
    memo.f1 = probabilities[1];
    if (ways === 3) {
      memo.m2 = medians[2];
      memo.f2 = probabilities[2];
    }
  }
  judged.validUntil = validUntil;
  let any = false;
  for (let o = 0; o < ways; o += 1) {
    const p2 = probabilities[o];
    if (!(p2 > 0 && p2 <= 1)) return void 0;
    if ((p2 * most[o] - 1) * 100 > 0) any = true;
  }
  if (!any) return NO_ROWS;
  const found = rowsScratch;
  const foundSlots = slotsScratch;
  let held = 0;
  let unchanged = true;
  for (let i = 0; i < n2; i += 1) {
    const decimal = usable[i];
    if (!(Number.isFinite(decimal) && decimal > 1)) continue;
    const o = i / BOOK_COUNT | 0;
    const fairProbability = probabilities[o];
    if (!(fairProbability > 0 && fairProbability <= 1)) return void 0;
    const pct = (fairProbability * decimal - 1) * 100;
    if (!(pct > 0)) continue;
    const version = priceAt(market, i);
    let row;
    const before = memo.slots.indexOf(i);
    let previous = null;
    if (before >= 0) {
      const kept = memo.rows[before];
      previous = kept;
      if (kept.decimal === decimal && kept.american === version.american && kept.updatedAt === version.updatedAt && kept.desktop === version.links.desktop && kept.mobile === version.links.mobile && kept.fairProbability === fairProbability && kept.fairBooks === complete && kept.evPct === pct && kept.live === memo.live && kept.startsAt === memo.startsAt)
        row = kept;
    }
    if (row === void 0) {
      const made = evRow(
        market.owner.event,
        market,
        o,
        version,
        fairProbability,
        complete,
        pct,
        instant,
        previous?.id
      );
      made.replaces = memo.lookup ? void 0 : previous;
      row = made;
    }
    if (unchanged && memo.rows[held] !== row) unchanged = false;
    found[held] = row;
    foundSlots[held] = i;
    held += 1;
  }
  judged.validUntil = validUntil;
  if (held === 0) return NO_ROWS;
  if (unchanged && held === memo.rows.length) {
    judged.slots = memo.slots;
    return memo.rows;
  }
  const rows = found.slice(0, held);
  const sortedSlots = foundSlots.slice(0, held);
  for (let i = 1; i < rows.length; i += 1) {
    const row = rows[i];
    const slot = sortedSlots[i];
    let j = i - 1;
    while (j >= 0 && evOrder(rows[j], row) > 0) {
      rows[j + 1] = rows[j];
      sortedSlots[j + 1] = sortedSlots[j];
      j -= 1;
    }
    rows[j + 1] = row;
    sortedSlots[j + 1] = slot;
  }
  judged.slots = sortedSlots;
  return rows;
}
function evOrder(a, b) {
  return b.evPct - a.evPct || (a.book < b.book ? -1 : a.book > b.book ? 1 : 0);
}
function grown(values) {
  const next = new Float64Array(values.length * 2);
  next.set(values);
  return next;
}
function medianOf(values, length) {
  insertionSort(values, length);
  const mid = length >> 1;
  return length % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}
function popcount(mask) {
  let count = 0;
  for (let m = mask; m !== 0; m &= m - 1) count += 1;
  return count;
}
function gameLayout(state, league, memoOf) {
  const markets = middleMarkets(state);
  const count = markets.length;
  const prior = SGP_GAME_PRIORS[league];
  const layout = {
    markets,
    memos: markets.map(memoOf),
    spread: new Uint8Array(count),
    line: new Float64Array(count),
    sigma: new Float64Array(count),
    high: new Int8Array(count).fill(-1),
    low: new Int8Array(count).fill(-1),
    pairs: new Int32Array(0)
  };
  for (let m = 0; m < count; m += 1) {
    const market = markets[m];
    const spread = market.spec.type === "spread";
    const point = market.spec.point;
    layout.spread[m] = spread ? 1 : 0;
    layout.line[m] = spread ? -point + 0 : point;
    layout.sigma[m] = spread ? prior.sigmaMargin : prior.sigmaTotal;
    for (let o = 0; o < market.outcomes.length; o += 1) {
      const side = sideOf2(market, o);
      if (side === "high" && layout.high[m] < 0) layout.high[m] = o;
      else if (side === "low" && layout.low[m] < 0) layout.low[m] = o;
    }
  }
  const pairs2 = [];
  for (let mh = 0; mh < count; mh += 1) {
    if (layout.high[mh] < 0) continue;
    for (let ml = 0; ml < count; ml += 1) {
      if (layout.low[ml] < 0 || layout.spread[ml] !== layout.spread[mh]) continue;
      if (isMiddleLines(layout.line[mh], layout.line[ml])) pairs2.push(mh, ml);
    }
  }
  layout.pairs = Int32Array.from(pairs2);
  return layout;
}
function eventMiddlesHot(event, game, memoOf, instant, limits, minBooks = MIDDLE_MIN_BOOKS) {
  judged.validUntil = Infinity;
  if (!Object.prototype.hasOwnProperty.call(LEAGUES, event.league)) return NO_ROWS;
  const league = event.league;
  const maxAge = event.live ? limits.maxAgeLiveMs : limits.maxAgePreMatchMs;
  let fresh = false;
  if (game.layout === void 0 || game.marketCount !== game.state.markets.size) {
    fresh = game.rows.length > 0;
    game.layout = gameLayout(game.state, league, memoOf);
    game.marketCount = game.state.markets.size;
    const pairs3 = game.layout.pairs.length >> 1;
    game.pairRows = new Array(pairs3 * 4).fill(void 0);
    game.pairChances = new Array(pairs3).fill(void 0);
    game.pairPublished = new Array(pairs3).fill(void 0);
    game.pairCentres = new Float64Array(pairs3 * 2);
    game.estimates = new Float64Array(game.layout.markets.length * BOOK_COUNT * 3);
  }
  const layout = game.layout;
  const markets = layout.markets;
  const count = markets.length;
  if (bestScratch.length < count * 4) bestScratch = new Int32Array(count * 4);
  const best = bestScratch;
  let validUntil = Infinity;
  let marginBooks = 0;
  let totalBooks = 0;
  let marginCount = 0;
  let totalCount = 0;
  for (let m = 0; m < count; m += 1) {
    const market = markets[m];
    const spread = layout.spread[m] === 1;
    const line = layout.line[m];
    const sigma = layout.sigma[m];
    const n2 = layout.memos[m].ways * BOOK_COUNT;
    const hot = market.hot;
    const at = market.at;
    const highOutcome = layout.high[m];
    const lowOutcome = layout.low[m];
    for (let i = 0; i < n2; i += 1) {
      const decimal = hot[at + i];
      const updatedAt = hot[at + n2 + i];
      if (decimal !== 0 && instant - updatedAt <= maxAge && updatedAt + maxAge + 1 < validUntil)
        validUntil = updatedAt + maxAge + 1;
    }
    let h0 = -1;
    let h1 = -1;
    let l0 = -1;
    let l1 = -1;
    const estimates = game.estimates;
    for (let slot = 0; slot < BOOK_COUNT; slot += 1) {
      let dh = 0;
      let dl = 0;
      if (highOutcome >= 0) {
        const i = highOutcome * BOOK_COUNT + slot;
        const d = hot[at + i];
        if (d !== 0 && instant - hot[at + n2 + i] <= maxAge) dh = d;
      }
      if (lowOutcome >= 0) {
        const i = lowOutcome * BOOK_COUNT + slot;
        const d = hot[at + i];
        if (d !== 0 && instant - hot[at + n2 + i] <= maxAge) dl = d;
      }
      if (dh !== 0) {
        if (h0 < 0 || dh > hot[at + highOutcome * BOOK_COUNT + h0]) {
          h1 = h0;
          h0 = slot;
        } else if (h1 < 0 || dh > hot[at + highOutcome * BOOK_COUNT + h1]) h1 = slot;
      }
      if (dl !== 0) {
        if (l0 < 0 || dl > hot[at + lowOutcome * BOOK_COUNT + l0]) {
          l1 = l0;
          l0 = slot;
        } else if (l1 < 0 || dl > hot[at + lowOutcome * BOOK_COUNT + l1]) l1 = slot;
      }
      if (dh > 1 && dl > 1 && Number.isFinite(line)) {
        const at2 = (m * BOOK_COUNT + slot) * 3;
        let estimate;
        if (estimates[at2] === dh && estimates[at2 + 1] === dl) estimate = estimates[at2 + 2];
        else {
          const p2 = 1 / dh / (1 / dh + 1 / dl);
          estimate = line + sigma * normalQuantile(p2);
          estimates[at2] = dh;
          estimates[at2 + 1] = dl;
          estimates[at2 + 2] = estimate;
        }
        if (spread) {
          if (marginCount === marginScratch.length) marginScratch = grown(marginScratch);
          marginScratch[marginCount++] = estimate;
          marginBooks |= 1 << slot;
        } else {
          if (totalCount === totalScratch.length) totalScratch = grown(totalScratch);
          totalScratch[totalCount++] = estimate;
          totalBooks |= 1 << slot;
        }
      }
    }
    best[m * 4] = h0;
    best[m * 4 + 1] = h1;
    best[m * 4 + 2] = l0;
    best[m * 4 + 3] = l1;
  }
  const margin = popcount(marginBooks) >= minBooks ? medianOf(marginScratch, marginCount) : void 0;
  const total2 = popcount(totalBooks) >= minBooks ? medianOf(totalScratch, totalCount) : void 0;
  judged.validUntil = validUntil;
  if (margin === void 0 && total2 === void 0) {
    judged.validUntil = Infinity;
    game.pairRows.fill(void 0);
    settleQuotes(layout);
    return NO_ROWS;
  }
  const centres = { margin: margin ?? 0, total: total2 ?? defaultTotal(league) };
  const nfl = league === "nfl";
  if (nfl) {
    const cached = game.distributions;
    if (cached.margin === void 0 || cached.margin.margin !== centres.margin || cached.margin.total !== centres.total)
      game.distributions = {};
  }
  const pairs2 = layout.pairs;
  const pairRows = game.pairRows;
  const rows = rowsScratch;
  let held = 0;
  let unchanged = true;
  for (let p2 = 0; p2 < pairs2.length >> 1; p2 += 1) {
    const mh = pairs2[p2 * 2];
    const ml = pairs2[p2 * 2 + 1];
    const spread = layout.spread[mh] === 1;
    const centre = spread ? margin : total2;
    if (centre === void 0 || best[mh * 4] < 0 || best[ml * 4 + 2] < 0) {
      for (let k2 = 0; k2 < 4; k2 += 1) pairRows[p2 * 4 + k2] = void 0;
      continue;
    }
    const variable = spread ? "margin" : "total";
    const high = markets[mh];
    const low = markets[ml];
    const highLine = layout.line[mh];
    const lowLine = layout.line[ml];
    const highOutcome = layout.high[mh];
    const lowOutcome = layout.low[ml];
    const highMemo = layout.memos[mh];
    const lowMemo = layout.memos[ml];
    let chances = game.pairChances[p2];
    let published = game.pairPublished[p2];
    const keyA = nfl ? centres.margin : centre;
    const keyB = nfl ? centres.total : 0;
    if (chances === void 0 || game.pairCentres[p2 * 2] !== keyA || game.pairCentres[p2 * 2 + 1] !== keyB) {
      chances = modelMiddleChances(
        league,
        variable,
        centres,
        highLine,
        lowLine,
        nfl ? nflDistributionOf(game, centres, variable) : void 0
      );
      published = publishedChances(chances);
      game.pairChances[p2] = chances;
      game.pairPublished[p2] = published;
      game.pairCentres[p2 * 2] = keyA;
      game.pairCentres[p2 * 2 + 1] = keyB;
    }
    let k = 0;
    const last0 = pairRows[p2 * 4];
    const last1 = pairRows[p2 * 4 + 1];
    const last2 = pairRows[p2 * 4 + 2];
    const last3 = pairRows[p2 * 4 + 3];
    for (let a = 0; a < 2; a += 1) {
      const hs = best[mh * 4 + a];
      if (hs < 0) continue;
      for (let b = 0; b < 2; b += 1) {
        const ls = best[ml * 4 + 2 + b];
        if (ls < 0 || ls === hs) continue;
        const highQuote = slotQuote(highMemo, high, highOutcome, highLine, hs);
        const lowQuote = slotQuote(lowMemo, low, lowOutcome, lowLine, ls);
        const ev = middleEv(highQuote.decimal, lowQuote.decimal, chances);
        const before = last0?.hs === hs && last0.ls === ls ? last0 : last1?.hs === hs && last1.ls === ls ? last1 : last2?.hs === hs && last2.ls === ls ? last2 : last3?.hs === hs && last3.ls === ls ? last3 : void 0;
        const row = before !== void 0 && before.high === highQuote && before.low === lowQuote && before.probability === published.middle && before.pushHigh === published.pushHigh && before.pushLow === published.pushLow && before.publishedEvPct === publishedPct(ev) && roundTo(before.centre, 2) === roundTo(centre, 2) && before.live === event.live && before.startsAt === event.startsAt ? before : middleRow(
          event,
          variable,
          centre,
          chances,
          highQuote,
          lowQuote,
          instant,
          before?.id,
          published,
          ev
        );
        row.hs = hs;
        row.ls = ls;
        if (row !== before) row.replaces = fresh ? void 0 : before ?? null;
        pairRows[p2 * 4 + k] = row;
        k += 1;
        if (unchanged && game.rows[held] !== row) unchanged = false;
        rows[held] = row;
        held += 1;
      }
    }
    for (; k < 4; k += 1) pairRows[p2 * 4 + k] = void 0;
  }
  settleQuotes(layout);
  if (held === 0) return NO_ROWS;
  if (unchanged && held === game.rows.length) return game.rows;
  return rows.slice(0, held);
}
function nflDistributionOf(game, centres, variable) {
  let kept = game.distributions[variable];
  if (kept === void 0) {
    const both = nflCalibratedDistributions(centres.margin, centres.total);
    game.distributions.margin = { margin: centres.margin, total: centres.total, distribution: both.margin };
    game.distributions.total = { margin: centres.margin, total: centres.total, distribution: both.total };
    kept = game.distributions[variable];
  }
  return kept.distribution;
}
function slotQuote(memo, market, outcome, line, slot) {
  const index = outcome * BOOK_COUNT + slot;
  const quotes = memo.quotes ??= [];
  const held = quotes[index];
  const bit = index < 31 ? 1 << index : -1;
  if (held !== void 0 && (memo.quoteDirty & bit) === 0) return held;
  const hot = market.hot;
  const row = market.at + market.columns + index * PRICE_ROW;
  const decimal = hot[row];
  const american = hot[row + 1];
  const updatedAt = hot[market.at + market.cells + index];
  const links = market.links[index];
  const quote = held !== void 0 && held.decimal === decimal && held.american === american && held.updatedAt === updatedAt && held.desktop === links.desktop && held.mobile === links.mobile ? held : {
    market,
    outcome,
    line,
    book: BOOKS_BY_SLOT[slot],
    decimal,
    american,
    updatedAt,
    desktop: links.desktop,
    mobile: links.mobile
  };
  quotes[index] = quote;
  if (bit !== -1) memo.quoteDirty &= ~bit;
  return quote;
}
function settleQuotes(layout) {
  for (const memo of layout.memos) {
    const dirty = memo.quoteDirty;
    if (dirty === 0) continue;
    memo.quoteDirty = 0;
    const quotes = memo.quotes;
    if (quotes === void 0) continue;
    if (dirty === -1) quotes.length = 0;
    else for (let index = 0; index < 31; index += 1) if (dirty & 1 << index) quotes[index] = void 0;
  }
}
var ValueScanner = class {
  constructor(options, limits, historyMs, historyStepMs) {
    this.options = options;
    this.limits = limits;
    this.history = new ValueHistory(historyMs, historyStepMs);
    this.periodMs = options.periodMs ?? 1e3;
  }
  options;
  limits;
  /** The positive-EV prices now (each held by its market's memo). */
  ev = new HeldRows(() => this.heldMarkets.owners);
  /** The middles now (each held by its game's memo). */
  middles = new HeldRows(() => this.heldGames.owners);
  /**
   * The memos (markets, games) whose rows or staleness can change without a new price (`HeldRegistry`): one dense
   * array each to run through a scan.
   */
  heldMarkets = new HeldRegistry(1024);
  heldGames = new HeldRegistry(256);
  /** What waits for the next scan: memos with a new price, turned stale, or gone from the store. */
  dirtyMarkets = [];
  dirtyGames = [];
  /** Memos are this generation's; a reset starts the next (older memos are then only read to clear what they held). */
  generation = 0;
  /** How many market memos were made (their `sequence`). */
  sequence = 0;
  /** The number of the current `applyRows` (rows carry the last that produced them). */
  stamp = 0;
  history;
  lastChangeAt = Number.NEGATIVE_INFINITY;
  /** When the scan last ran (-Infinity: never, or the next tick must run it). */
  ranAt = Number.NEGATIVE_INFINITY;
  periodMs;
  memoOf = (market) => {
    let memo = market.valueMemo;
    if (memo === void 0 || memo.generation !== this.generation) {
      memo = {
        generation: this.generation,
        sequence: this.sequence += 1,
        market,
        middle: isMiddleMarket(market),
        index: -1,
        dirty: false,
        gone: false,
        rows: NO_ROWS,
        slots: NO_ROWS,
        lookup: false,
        fitWays: 0,
        m0: 0,
        m1: 0,
        m2: 0,
        f0: 0,
        f1: 0,
        f2: 0,
        live: market.owner.event.live,
        startsAt: market.owner.event.startsAt,
        ways: market.outcomes.length,
        quoteDirty: 0,
        quotes: void 0,
        family: void 0
      };
      if (this.options.middles && isPropMiddleMarket(market)) memo.family = this.familyOf(market);
      market.valueMemo = memo;
    }
    return memo;
  };
  /** When the last scan ran: the instant the sets are judged at. */
  get scannedAt() {
    return this.ranAt;
  }
  /**
   * A price of the market was accepted (a new version, or a re-confirmation of a price that was not usable), at
   * `index` of its slots when known.
   */
  touch(market, index = -1) {
    const memo = this.memoOf(market);
    if (index >= 0) memo.quoteDirty |= index < 31 ? 1 << index : -1;
    if (this.options.ev && !memo.dirty) {
      memo.dirty = true;
      this.dirtyMarkets.push(memo);
    }
    if (this.options.middles) {
      if (memo.middle) this.markGame(this.gameOf(market.owner));
      else if (memo.family !== void 0) this.markGame(memo.family);
    }
  }
  /** The event's record changed (live, start): every market of it is judged again. */
  touchEvent(state) {
    for (const market of state.markets.values()) {
      const memo = this.memoOf(market);
      memo.live = state.event.live;
      memo.startsAt = state.event.startsAt;
      this.touch(market);
    }
  }
  /** The markets left the store (their event ended, or the engine was emptied): what they held leaves the sets. */
  drop(markets) {
    for (const market of markets) {
      const memo = market.valueMemo;
      if (memo !== void 0 && memo.generation === this.generation) {
        memo.gone = true;
        this.markMarket(memo);
        if (memo.family !== void 0 && !memo.family.gone) {
          memo.family.gone = true;
          this.markGame(memo.family);
        }
      }
      const game = market.owner.valueMemo;
      if (game !== void 0 && game.generation === this.generation && !game.gone) {
        game.gone = true;
        this.markGame(game);
      }
    }
  }
  /** Everything held leaves the sets at the next scan (the engine starts over), which the next tick runs. */
  reset() {
    for (const memo of this.dirtyMarkets) memo.dirty = false;
    for (const game of this.dirtyGames) game.dirty = false;
    this.dirtyMarkets = [];
    this.dirtyGames = [];
    for (const memo of this.heldMarkets.owners) {
      if (memo === void 0) continue;
      memo.gone = true;
      this.markMarket(memo);
    }
    for (const game of this.heldGames.owners) {
      if (game === void 0) continue;
      game.gone = true;
      this.markGame(game);
    }
    this.generation += 1;
    this.ranAt = Number.NEGATIVE_INFINITY;
  }
  /** Whether a scan at `now` runs: the first of each period's slot (decision 170). */
  due(now) {
    return this.ranAt === Number.NEGATIVE_INFINITY || Math.floor(now / this.periodMs) !== Math.floor(this.ranAt / this.periodMs);
  }
  /**
   * On the first tick of each period's slot: judges again what changed or turned stale since the last scan, at `now`,
   * and brings the sets up to date. Returns what changed, or undefined when nothing did (or the slot was scanned).
   */
  scan(store, now) {
    if (!this.due(now)) return void 0;
    this.ranAt = now;
    this.heldMarkets.stale(now, this.markMarket);
    this.heldGames.stale(now, this.markGame);
    if (this.dirtyMarkets.length === 0 && this.dirtyGames.length === 0) return void 0;
    const changes = { at: now, ev: [], evRemoved: [], middles: [], middlesRemoved: [] };
    this.history.keep(this.lastChangeAt, now, this);
    const dirtyMarkets = this.dirtyMarkets;
    this.dirtyMarkets = [];
    dirtyMarkets.sort(bySequence);
    for (const memo of dirtyMarkets) {
      memo.dirty = false;
      const market = memo.market;
      let rows;
      let slots;
      let until;
      let lookup = false;
      if (memo.gone || memo.generation !== this.generation) {
        rows = NO_ROWS;
        slots = NO_ROWS;
        until = Infinity;
      } else {
        const hot = judgeEvHot(market, now, this.limits, memo);
        if (hot !== void 0) {
          rows = hot;
          slots = judged.slots;
          until = judged.validUntil;
        } else {
          const slow = judgeEv(store, market.owner.event, market, void 0, now, this.limits);
          rows = slow.rows;
          slots = rows.map(() => -1);
          until = slow.validUntil;
          lookup = true;
        }
      }
      this.ev.count += applyRows(
        memo.rows,
        rows,
        changes.ev,
        changes.evRemoved,
        evRowChanged,
        this.stamp += 1
      );
      memo.rows = rows;
      memo.slots = slots;
      memo.lookup = lookup;
      this.heldMarkets.hold(memo, rows.length > 0 || until !== Infinity ? until : void 0);
    }
    const dirtyGames = this.dirtyGames;
    this.dirtyGames = [];
    dirtyGames.sort(bySequence);
    for (const game of dirtyGames) {
      game.dirty = false;
      const state = game.state;
      let rows;
      let until;
      if (game.gone || state.removed || game.generation !== this.generation) {
        rows = NO_ROWS;
        until = Infinity;
      } else if (game.kind === "family") {
        const family = propFamilyMiddles(store, state.event, game.markets, void 0, now, this.limits);
        rows = family.rows;
        until = family.validUntil;
      } else {
        rows = eventMiddlesHot(state.event, game, this.memoOf, now, this.limits);
        until = judged.validUntil;
      }
      this.middles.count += applyRows(
        game.rows,
        rows,
        changes.middles,
        changes.middlesRemoved,
        middleRowChanged,
        this.stamp += 1
      );
      game.rows = rows;
      this.heldGames.hold(game, rows.length > 0 || until !== Infinity ? until : void 0);
    }
    const changed = changes.ev.length + changes.evRemoved.length + changes.middles.length + changes.middlesRemoved.length > 0;
    if (!changed) return void 0;
    this.lastChangeAt = now;
    return changes;
  }
  markMarket = (memo) => {
    if (memo.dirty) return;
    memo.dirty = true;
    this.dirtyMarkets.push(memo);
  };
  markGame = (game) => {
    if (game.dirty) return;
    game.dirty = true;
    this.dirtyGames.push(game);
  };
  /** The game's memo (kept on its state). */
  gameOf(state) {
    let game = state.valueMemo;
    if (game === void 0 || game.generation !== this.generation) {
      game = {
        kind: "game",
        generation: this.generation,
        sequence: this.sequence += 1,
        state,
        index: -1,
        dirty: false,
        gone: false,
        layout: void 0,
        marketCount: -1,
        distributions: {},
        rows: NO_ROWS,
        pairRows: [],
        pairChances: [],
        pairPublished: [],
        pairCentres: new Float64Array(0),
        estimates: new Float64Array(0),
        families: void 0
      };
      state.valueMemo = game;
    }
    return game;
  }
  /** The prop family of a prop middle market (kept on its game's memo), the market joined to it. */
  familyOf(market) {
    const game = this.gameOf(market.owner);
    const families = game.families ??= /* @__PURE__ */ new Map();
    const key = propFamilyKey(market.spec);
    let family = families.get(key);
    if (family === void 0) {
      family = {
        kind: "family",
        generation: this.generation,
        sequence: this.sequence += 1,
        state: market.owner,
        index: -1,
        dirty: false,
        gone: false,
        rows: NO_ROWS,
        markets: []
      };
      families.set(key, family);
    }
    family.markets.push(market);
    return family;
  }
  /** The sets as a reader at `time` sees them (the newest kept at or before it); undefined when none that old is kept. */
  at(time) {
    if (this.lastChangeAt <= time) return this.current();
    return this.history.at(time);
  }
  /** The sets now. */
  current() {
    return {
      at: this.lastChangeAt,
      ev: heldRows(this.heldMarkets.owners, this.ev.count),
      middles: heldRows(this.heldGames.owners, this.middles.count)
    };
  }
};
function applyRows(before, after, added, removed, changed, stamp2) {
  if (before.length === 0 && after.length === 0) return 0;
  let byId;
  for (const row of after) {
    const tracked = row;
    tracked.mark = stamp2;
    if (tracked.held) continue;
    const known = tracked.replaces;
    tracked.replaces = void 0;
    let previous;
    if (known === void 0) {
      byId ??= new Map(before.map((held) => [held.id, held]));
      previous = byId.get(row.id);
      if (previous !== void 0 && !previous.held) previous = void 0;
    } else previous = known ?? void 0;
    if (previous === void 0 || changed(previous, row)) added.push(row);
    if (previous !== void 0) previous.held = false;
    tracked.held = true;
  }
  if (before === after) return 0;
  for (const row of before) {
    const tracked = row;
    if (!tracked.held || tracked.mark === stamp2) continue;
    tracked.held = false;
    removed.push(row);
  }
  return after.length - before.length;
}
function heldRows(owners, count) {
  const rows = new Array(count);
  let at = 0;
  for (let o = 0; o < owners.length; o += 1) {
    const owner = owners[o];
    if (owner === void 0) continue;
    const held = owner.rows;
    for (let i = 0; i < held.length; i += 1) rows[at++] = held[i];
  }
  rows.length = at;
  return rows;
}
var HeldRows = class {
  constructor(owners) {
    this.owners = owners;
  }
  owners;
  /** How many (kept by the scan). */
  count = 0;
  get size() {
    return this.count;
  }
  *values() {
    for (const owner of this.owners()) if (owner !== void 0) yield* owner.rows;
  }
  *keys() {
    for (const row of this.values()) yield row.id;
  }
};
function bySequence(a, b) {
  return a.sequence - b.sequence;
}
var HeldRegistry = class {
  owners = [];
  until;
  free = [];
  constructor(capacity) {
    this.until = new Float64Array(capacity).fill(Infinity);
  }
  /** Registers the owner's judgement as holding until `until` (undefined: nothing it holds can change alone). */
  hold(owner, until) {
    if (until === void 0) {
      if (owner.index >= 0) {
        this.owners[owner.index] = void 0;
        this.until[owner.index] = Infinity;
        this.free.push(owner.index);
        owner.index = -1;
      }
      return;
    }
    if (owner.index < 0) {
      owner.index = this.free.pop() ?? this.owners.length;
      if (owner.index === this.owners.length) this.owners.push(void 0);
      if (owner.index >= this.until.length) {
        const next = new Float64Array(this.until.length * 2).fill(Infinity);
        next.set(this.until);
        this.until = next;
      }
      this.owners[owner.index] = owner;
    }
    this.until[owner.index] = until;
  }
  /** Calls `mark` with each owner whose judgement no longer holds at `now`. */
  stale(now, mark) {
    const until = this.until;
    for (let i = 0; i < this.owners.length; i += 1) if (until[i] <= now) mark(this.owners[i]);
  }
};
var ValueHistory = class {
  constructor(historyMs, stepMs) {
    this.historyMs = historyMs;
    this.stepMs = stepMs;
  }
  historyMs;
  stepMs;
  items = [];
  keep(lastChangeAt, now, scanner) {
    if (lastChangeAt === Number.NEGATIVE_INFINITY) {
      if (this.items.length === 0) this.items.push({ at: lastChangeAt, ev: [], middles: [] });
    } else if (Math.floor(lastChangeAt / this.stepMs) !== Math.floor(now / this.stepMs)) {
      const last = this.items[this.items.length - 1];
      if (!last || last.at !== lastChangeAt) this.items.push({ ...scanner.current(), at: lastChangeAt });
    }
    const horizon = now - this.historyMs;
    let drop = 0;
    while (drop + 1 < this.items.length && this.items[drop + 1].at <= horizon) drop += 1;
    if (drop > 0) this.items.splice(0, drop);
  }
  at(time) {
    let lo = 0;
    let hi = this.items.length - 1;
    let found;
    while (lo <= hi) {
      const mid = lo + hi >> 1;
      const item = this.items[mid];
      if (item.at <= time) {
        found = item;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }
};

// src/engine/engine.ts
var OddsEngine = class {
  store;
  source;
  registry = new EventRegistry();
  history;
  scan;
  now;
  maxArbs;
  publishIntervalMs;
  intake;
  encode;
  dirty = new DirtyMarkets();
  results = /* @__PURE__ */ new Map();
  listeners = /* @__PURE__ */ new Set();
  valueListeners = /* @__PURE__ */ new Set();
  /** The positive-EV and middles sets, when `values` asked for them. */
  values;
  foundAt = new FoundAt();
  /** A source's event id → the event's state, so that a price finds its event in one lookup (dropped when removed). */
  eventsBySource = /* @__PURE__ */ new Map();
  accepted = 0;
  published = 0;
  scans = 0;
  changed = true;
  ready = false;
  /** The worst edge of the last ranking when it filled the feed (`rankResults`' floor), else -Infinity. */
  rankFloor = Number.NEGATIVE_INFINITY;
  /** The results, iterable again and again (a ranking with a floor may read them twice). */
  resultValues = { [Symbol.iterator]: () => this.results.values() };
  /** Writes the feed's arbs, keeping the JSON of each arb it wrote last (publisher.ts `ArbsJson`). */
  arbsJson = new ArbsJson();
  timer = null;
  historyMs;
  /** What `retire()` kept for delayed readers before `until`. */
  retired;
  constructor(options) {
    this.source = options.source;
    this.now = options.now ?? Date.now;
    this.scan = { ...DEFAULT_SCAN_OPTIONS, ...options.scan };
    this.maxArbs = options.maxArbs ?? 300;
    this.publishIntervalMs = options.publishIntervalMs ?? 250;
    this.intake = new Intake(options.limits, options.onDrop);
    this.encode = options.encode ?? (() => void 0);
    const historyMs = options.historyMs ?? 18e4;
    this.historyMs = historyMs;
    this.store = new OddsStore(historyMs);
    this.history = new SnapshotHistory(historyMs, options.historyStepMs ?? 1e3);
    const values = { ev: false, middles: false, ...options.values };
    this.values = values.ev || values.middles ? new ValueScanner(values, this.scan, historyMs, options.historyStepMs ?? 1e3) : void 0;
  }
  /**
   * The source has delivered its initial state (or given up on it): from now on ticks publish. Before this, the feed
   * route answers 503 rather than an empty feed that would look like "no arbs".
   */
  markReady() {
    this.ready = true;
  }
  get isReady() {
    return this.ready;
  }
  /** Counts a message dropped before it became a message (payload too large, not JSON). */
  drop(reason, count = 1) {
    this.intake.drop(reason, count);
  }
  /**
   * Checks and applies an untrusted payload (a JSON message or an array of them): refused whole when over
   * `maxBytes` (checked before parsing) or not JSON. Returns how many messages were accepted.
   */
  ingestPayload(body, maxBytes) {
    const messages = this.intake.parse(body, maxBytes);
    if (!messages) return 0;
    let accepted = 0;
    for (const message of messages) if (this.ingest(message)) accepted += 1;
    return accepted;
  }
  /**
   * Checks and applies one untrusted message. Returns whether it was accepted. `at` (default: the clock) is the time
   * of receipt: an `api` instance replaying the ingest leader's accepted messages passes the leader's (issue 19).
   */
  ingest(message, at) {
    const now = at ?? this.now();
    const checked = this.intake.check(message, now);
    if (!checked) return false;
    const refused = this.apply(checked, now);
    if (refused) {
      this.intake.drop(refused);
      return false;
    }
    this.accepted += 1;
    return true;
  }
  /**
   * Applies a checked message. Returns null, or why the store cannot take it: the message is valid but names a
   * fixture the engine does not hold, or a market its league does not offer (decision 095).
   */
  apply(message, now) {
    switch (message.kind) {
      case "price":
        return this.applyPrice(message, now);
      case "event":
        this.applyEvent(message);
        return null;
      case "end":
        return this.applyEnd(message);
    }
  }
  applyEvent(value) {
    const known = this.registry.lookup(value.sourceEventId);
    if (known !== void 0 && this.store.event(known)?.league !== value.league)
      this.applyEnd({ kind: "end", sourceEventId: value.sourceEventId });
    const id = this.registry.resolve(
      value.sourceEventId,
      value.league,
      value.home,
      value.away,
      value.startsAt
    );
    const previous = this.store.event(id);
    const event = {
      id,
      league: value.league,
      home: previous?.home ?? value.home,
      away: previous?.away ?? value.away,
      startsAt: value.startsAt,
      live: value.live
    };
    const state = this.store.upsertEvent(event);
    if (value.players.length > 0) this.store.addPlayers(state, value.players);
    if (!previous || previous.live !== event.live || previous.startsAt !== event.startsAt) {
      for (const market of state.markets.values()) this.dirty.add(market);
      this.values?.touchEvent(state);
    }
  }
  applyEnd(value) {
    const id = this.registry.lookup(value.sourceEventId);
    if (!id) return "unknown_event";
    const markets = this.store.removeEvent(id);
    for (const market of markets) {
      this.dirty.delete(market);
      if (this.results.delete(market.key)) this.changed = true;
    }
    this.values?.drop(markets);
    this.registry.forget(id);
    for (const [sourceId, state] of this.eventsBySource)
      if (state.removed) this.eventsBySource.delete(sourceId);
    return null;
  }
  applyPrice(value, now) {
    let eventState = this.eventsBySource.get(value.sourceEventId);
    if (eventState === void 0 || eventState.removed) {
      const eventId = this.registry.lookup(value.sourceEventId);
      eventState = eventId ? this.store.eventState(eventId) : void 0;
      if (!eventState) return "unknown_event";
      if (this.eventsBySource.size >= MAX_CACHED_SOURCE_IDS) this.eventsBySource.clear();
      this.eventsBySource.set(value.sourceEventId, eventState);
    }
    let market;
    if (value.type === "prop") {
      const player = this.resolvePlayer(eventState, value);
      if (typeof player === "string") return player;
      const code = propMarketCode(value.stat, value.periodCode, player.index, value.point);
      market = eventState.byCode.get(code) ?? this.store.marketFor(
        eventState,
        code,
        {
          type: "prop",
          stat: value.stat,
          period: value.period,
          playerId: player.player.id,
          point: value.point
        },
        player.player
      );
    } else {
      const code = marketCode(value.typeCode, value.periodCode, value.point);
      market = eventState.byCode.get(code) ?? this.store.marketFor(eventState, code, {
        type: value.type,
        period: value.period,
        point: value.point
      });
    }
    if (!market) return "unknown_market";
    const slot = value.bookSlot;
    const index = value.outcomeIndex * BOOK_COUNT + slot;
    const hot = market.hot;
    const cells = market.cells;
    const row = market.at + market.columns + index * PRICE_ROW;
    const flags = hot[row + 4];
    const held = market.links[index];
    const links = value.links ?? held ?? NO_LINKS;
    const maxAge = maxAgeFor(eventState.event, this.scan);
    let refresh = false;
    if (flags === 0) {
      this.store.put(market, index, value.outcomeIndex, value.book, value, links, now);
    } else if (hot[row + 1] === value.american && hot[row] === value.decimal && (flags & PRICE_SUSPENDED) !== 0 === value.suspended && sameLinks(held, links) && value.updatedAt >= hot[market.at + cells + index]) {
      refresh = !value.suspended && now - hot[market.at + cells + index] <= maxAge;
      this.store.confirm(market, index, value, now);
    } else {
      this.store.update(market, index, value, links, now);
    }
    if (!refresh) this.values?.touch(market, index);
    const record = market.at + lastScanAt(market.outcomes.length) + value.outcomeIndex;
    const irrelevant = market.scanned && (hot[record] & 1 << slot) === 0 && (value.suspended || now - value.updatedAt > maxAge || value.decimal < hot[record + market.outcomes.length]);
    if (!refresh && !irrelevant) this.dirty.add(market);
    return null;
  }
  /**
   * The roster entry a prop price names (by id, then by normalised name and team; decision 120), or why it is dropped:
   * `unknown_player` (not on the roster, or listed under the other team), `ambiguous_player` (two players could be
   * meant). Matches are cached per naming until the roster grows.
   */
  resolvePlayer(eventState, value) {
    if (value.playerId !== null) {
      const byId = eventState.players.get(value.playerId);
      if (byId) return byId;
    }
    const index = eventState.rosterIndex;
    if (!index) return "unknown_player";
    const naming = `${value.playerId ?? ""}\0${value.playerName}\0${value.playerTeam ?? ""}`;
    let match = eventState.playerMatches.get(naming);
    if (!match) {
      match = matchPlayer(index, { id: value.playerId, name: value.playerName, team: value.playerTeam });
      if (eventState.playerMatches.size < 1e4) eventState.playerMatches.set(naming, match);
    }
    if (match.status === "matched") return eventState.players.get(match.player.id);
    return match.status === "ambiguous" ? "ambiguous_player" : "unknown_player";
  }
  /**
   * Re-scans the markets that changed or whose arbs reached a price's age limit, and publishes a snapshot when the
   * arbs changed. Returns the new snapshot, or undefined when nothing changed.
   */
  tick() {
    if (!this.ready) return void 0;
    const now = this.now();
    this.results.forEach((entry, key) => {
      if (entry.validUntil <= now) {
        const market = this.store.market(key);
        if (market) this.dirty.add(market);
        else this.results.delete(key);
      }
    });
    const dirty = this.dirty.markets();
    this.scans += dirty.length;
    if (rescanMarkets(dirty, now, this.scan, this.results)) this.changed = true;
    this.dirty.clear();
    this.scanValues(now);
    if (!this.changed && this.history.latest) return void 0;
    this.changed = false;
    const { arbs, keys } = rankResults(this.resultValues, this.maxArbs, this.rankFloor);
    this.rankFloor = arbs.length === this.maxArbs && arbs.length > 0 ? arbs[arbs.length - 1].edge_pct : Number.NEGATIVE_INFINITY;
    const generatedAt = Math.floor(now / 1e3);
    this.foundAt.stamp(arbs, keys, generatedAt);
    this.arbsJson.update(arbs);
    if (!this.arbsJson.changed && this.history.latest) return void 0;
    const body = this.arbsJson.body(now, this.source);
    const snapshot = {
      at: now,
      generatedAt,
      arbs,
      keys,
      body,
      encoded: this.encode(body)
    };
    this.history.add(snapshot);
    this.published += 1;
    for (const listener of this.listeners) listener(snapshot);
    return snapshot;
  }
  /**
   * Publishes a snapshot built elsewhere: an `api` instance installs the ingest leader's, byte for byte, instead of
   * scanning (issue 19). Its arbs are those the body was serialised from.
   */
  install(snapshot) {
    this.ready = true;
    this.scanValues(snapshot.at);
    const installed = { ...snapshot, encoded: this.encode(snapshot.body) };
    this.history.add(installed);
    this.published += 1;
    for (const listener of this.listeners) listener(installed);
    return installed;
  }
  /**
   * Forgets every fixture and price (an ingest instance that loses or takes the lead). Published snapshots stay: the
   * feed keeps its last answer until the next publish.
   */
  clear() {
    for (const event of this.store.events()) {
      for (const market of this.store.removeEvent(event.id, true)) this.dirty.delete(market);
      this.registry.forget(event.id);
    }
    this.restart();
  }
  /**
   * Starts over empty, like `clear()`, but what the engine held stays readable for delayed readers whose horizon is
   * before `until` (unix ms), for as long as the versions window could show it (an `api` instance following a new
   * ingest leader, whose market starts at `until`; decision 146). Nothing is announced as removed.
   */
  retire(until) {
    const retired = this.store.handOver();
    for (const event of retired.events()) this.registry.forget(event.id);
    this.retired = { store: retired, until };
    this.restart();
  }
  /**
   * The store a reader at `at` reads (undefined: real time): the one `retire()` kept when `at` is before its end and
   * the window still holds it, else the current one.
   */
  storeAt(at) {
    const retired = this.retired;
    if (retired === void 0 || at === void 0 || at >= retired.until) return this.store;
    if (this.now() - retired.until > this.historyMs) {
      this.retired = void 0;
      return this.store;
    }
    return retired.store;
  }
  restart() {
    this.values?.reset();
    this.results.clear();
    this.dirty.clear();
    this.eventsBySource.clear();
    this.changed = true;
    this.ready = false;
  }
  /** The latest snapshot, or undefined before the first publish. */
  get latest() {
    return this.history.latest;
  }
  /** The newest snapshot published at or before `time` (unix ms): what a reader delayed to `time` may see. */
  snapshotAt(time) {
    return this.history.at(time);
  }
  /** Judges again the values that changed and tells the listeners. */
  scanValues(now) {
    if (!this.values) return;
    const changes = this.values.scan(this.store, now);
    if (changes) for (const listener of this.valueListeners) listener(changes);
  }
  /** Called with what each tick changed in the positive-EV and middles sets (when `values` asked for them). */
  onValues(listener) {
    this.valueListeners.add(listener);
    return () => this.valueListeners.delete(listener);
  }
  /** The positive-EV and middles sets as a reader delayed to `time` sees them (undefined: not kept, or not asked for). */
  valuesAt(time) {
    return this.values?.at(time);
  }
  onSnapshot(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  /** Current arbs (all of them, before the feed's cap), best first. */
  currentArbs() {
    return rankArbs(this.results.values());
  }
  stats() {
    return {
      source: this.source,
      accepted: this.accepted,
      dropped: this.intake.dropped,
      drops: this.intake.drops(),
      events: this.store.eventCount,
      markets: this.store.marketCount,
      arbs: this.history.latest?.arbs.length ?? 0,
      published: this.published,
      scans: this.scans,
      lastPublishedAt: this.history.latest?.at ?? null
    };
  }
  /** Ticks every `publishIntervalMs` until stop(). The timer never keeps the process alive. */
  start() {
    if (this.timer) return;
    this.tick();
    this.timer = setInterval(() => this.tick(), this.publishIntervalMs);
    this.timer.unref?.();
  }
  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
  /** Whether the publish timer runs (between start() and stop()). */
  get running() {
    return this.timer !== null;
  }
};
var MAX_CACHED_SOURCE_IDS = 1e5;
var NO_LINKS = Object.freeze({ desktop: null, mobile: null });
function sameLinks(a, b) {
  return a === b || a.desktop === b.desktop && a.mobile === b.mobile;
}
var DirtyMarkets = class {
  list = [];
  round = 1;
  add(market) {
    const round = market.dirtyRound;
    if (round === this.round) return;
    market.dirtyRound = this.round;
    if (round !== -this.round) this.list.push(market);
  }
  delete(market) {
    if (market.dirtyRound === this.round) market.dirtyRound = -this.round;
  }
  /** The markets marked and not deleted since the last `clear` (the list itself: read it before marking more). */
  markets() {
    const list = this.list;
    let kept = 0;
    for (let i = 0; i < list.length; i += 1) {
      const market = list[i];
      if (market.dirtyRound === this.round) list[kept++] = market;
      else market.dirtyRound = 0;
    }
    list.length = kept;
    return list;
  }
  clear() {
    this.list.length = 0;
    this.round += 1;
  }
};

// src/engine/sources/links.ts
function simulatedLinks(book) {
  const link = homePage(book);
  return { desktop: link, mobile: link };
}

// src/engine/sources/teams.ts
var table = (rows) => rows.trim().split("\n").map((row) => {
  const [abbreviation, name] = row.trim().split("|");
  return [name, abbreviation];
});
var TEAMS = {
  nba: table(`
    ATL|Atlanta Hawks
    BOS|Boston Celtics
    BKN|Brooklyn Nets
    CHA|Charlotte Hornets
    CHI|Chicago Bulls
    CLE|Cleveland Cavaliers
    DAL|Dallas Mavericks
    DEN|Denver Nuggets
    DET|Detroit Pistons
    GSW|Golden State Warriors
    HOU|Houston Rockets
    IND|Indiana Pacers
    LAC|Los Angeles Clippers
    LAL|Los Angeles Lakers
    MEM|Memphis Grizzlies
    MIA|Miami Heat
    MIL|Milwaukee Bucks
    MIN|Minnesota Timberwolves
    NOP|New Orleans Pelicans
    NYK|New York Knicks
    OKC|Oklahoma City Thunder
    ORL|Orlando Magic
    PHI|Philadelphia 76ers
    PHX|Phoenix Suns
    POR|Portland Trail Blazers
    SAC|Sacramento Kings
    SAS|San Antonio Spurs
    TOR|Toronto Raptors
    UTA|Utah Jazz
    WAS|Washington Wizards`),
  ncaab: table(`
    DUKE|Duke Blue Devils
    UNC|North Carolina Tar Heels
    UK|Kentucky Wildcats
    KU|Kansas Jayhawks
    GONZ|Gonzaga Bulldogs
    UCLA|UCLA Bruins
    NOVA|Villanova Wildcats
    MSU|Michigan State Spartans
    UCONN|UConn Huskies
    HOU|Houston Cougars
    PUR|Purdue Boilermakers
    ARIZ|Arizona Wildcats
    BAY|Baylor Bears
    TENN|Tennessee Volunteers
    AUB|Auburn Tigers
    ALA|Alabama Crimson Tide
    MARQ|Marquette Golden Eagles
    CREI|Creighton Bluejays
    TTU|Texas Tech Red Raiders
    ISU|Iowa State Cyclones`),
  nfl: table(`
    ARI|Arizona Cardinals
    ATL|Atlanta Falcons
    BAL|Baltimore Ravens
    BUF|Buffalo Bills
    CAR|Carolina Panthers
    CHI|Chicago Bears
    CIN|Cincinnati Bengals
    CLE|Cleveland Browns
    DAL|Dallas Cowboys
    DEN|Denver Broncos
    DET|Detroit Lions
    GB|Green Bay Packers
    HOU|Houston Texans
    IND|Indianapolis Colts
    JAX|Jacksonville Jaguars
    KC|Kansas City Chiefs
    LV|Las Vegas Raiders
    LAC|Los Angeles Chargers
    LAR|Los Angeles Rams
    MIA|Miami Dolphins
    MIN|Minnesota Vikings
    NE|New England Patriots
    NO|New Orleans Saints
    NYG|New York Giants
    NYJ|New York Jets
    PHI|Philadelphia Eagles
    PIT|Pittsburgh Steelers
    SF|San Francisco 49ers
    SEA|Seattle Seahawks
    TB|Tampa Bay Buccaneers
    TEN|Tennessee Titans
    WAS|Washington Commanders`),
  mlb: table(`
    ARI|Arizona Diamondbacks
    ATL|Atlanta Braves
    BAL|Baltimore Orioles
    BOS|Boston Red Sox
    CHC|Chicago Cubs
    CWS|Chicago White Sox
    CIN|Cincinnati Reds
    CLE|Cleveland Guardians
    COL|Colorado Rockies
    DET|Detroit Tigers
    HOU|Houston Astros
    KC|Kansas City Royals
    LAA|Los Angeles Angels
    LAD|Los Angeles Dodgers
    MIA|Miami Marlins
    MIL|Milwaukee Brewers
    MIN|Minnesota Twins
    NYM|New York Mets
    NYY|New York Yankees
    ATH|Athletics
    PHI|Philadelphia Phillies
    PIT|Pittsburgh Pirates
    SD|San Diego Padres
    SF|San Francisco Giants
    SEA|Seattle Mariners
    STL|St. Louis Cardinals
    TB|Tampa Bay Rays
    TEX|Texas Rangers
    TOR|Toronto Blue Jays
    WSH|Washington Nationals`),
  nhl: table(`
    ANA|Anaheim Ducks
    BOS|Boston Bruins
    BUF|Buffalo Sabres
    CGY|Calgary Flames
    CAR|Carolina Hurricanes
    CHI|Chicago Blackhawks
    COL|Colorado Avalanche
    CBJ|Columbus Blue Jackets
    DAL|Dallas Stars
    DET|Detroit Red Wings
    EDM|Edmonton Oilers
    FLA|Florida Panthers
    LAK|Los Angeles Kings
    MIN|Minnesota Wild
    MTL|Montreal Canadiens
    NSH|Nashville Predators
    NJD|New Jersey Devils
    NYI|New York Islanders
    NYR|New York Rangers
    OTT|Ottawa Senators
    PHI|Philadelphia Flyers
    PIT|Pittsburgh Penguins
    SJS|San Jose Sharks
    SEA|Seattle Kraken
    STL|St. Louis Blues
    TBL|Tampa Bay Lightning
    TOR|Toronto Maple Leafs
    UTA|Utah Mammoth
    VAN|Vancouver Canucks
    VGK|Vegas Golden Knights
    WSH|Washington Capitals
    WPG|Winnipeg Jets`),
  epl: table(`
    ARS|Arsenal
    AVL|Aston Villa
    BOU|Bournemouth
    BRE|Brentford
    BHA|Brighton and Hove Albion
    BUR|Burnley
    CHE|Chelsea
    CRY|Crystal Palace
    EVE|Everton
    FUL|Fulham
    LEE|Leeds United
    LIV|Liverpool
    MCI|Manchester City
    MUN|Manchester United
    NEW|Newcastle United
    NFO|Nottingham Forest
    SUN|Sunderland
    TOT|Tottenham Hotspur
    WHU|West Ham United
    WOL|Wolverhampton Wanderers`),
  mls: table(`
    ATL|Atlanta United FC
    ATX|Austin FC
    CLT|Charlotte FC
    CHI|Chicago Fire FC
    CIN|FC Cincinnati
    CLB|Columbus Crew
    DAL|FC Dallas
    HOU|Houston Dynamo FC
    MIA|Inter Miami CF
    LAG|LA Galaxy
    LAFC|Los Angeles FC
    NSH|Nashville SC
    NYC|New York City FC
    RBNY|New York Red Bulls
    ORL|Orlando City SC
    PHI|Philadelphia Union
    POR|Portland Timbers
    SEA|Seattle Sounders FC`)
};
var byName = /* @__PURE__ */ new Map();
for (const rows of Object.values(TEAMS))
  for (const [name, abbreviation] of rows) byName.set(name.toLowerCase(), abbreviation);

// src/engine/sources/simulation/models.ts
var PROFILES = {
  circa: { margin: 0.021, lagSeconds: 4, roundToFive: false },
  betonline: { margin: 0.026, lagSeconds: 5, roundToFive: false },
  bodog: { margin: 0.038, lagSeconds: 9, roundToFive: true },
  fanduel: { margin: 0.042, lagSeconds: 5, roundToFive: false },
  draftkings: { margin: 0.044, lagSeconds: 5, roundToFive: false },
  betmgm: { margin: 0.049, lagSeconds: 8, roundToFive: true },
  caesars: { margin: 0.048, lagSeconds: 8, roundToFive: true },
  espn: { margin: 0.046, lagSeconds: 7, roundToFive: false },
  fanatics: { margin: 0.043, lagSeconds: 6, roundToFive: false },
  hardrock: { margin: 0.05, lagSeconds: 9, roundToFive: true },
  hardrock_in: { margin: 0.054, lagSeconds: 11, roundToFive: true },
  ballybet: { margin: 0.058, lagSeconds: 12, roundToFive: true },
  betparx: { margin: 0.056, lagSeconds: 12, roundToFive: true },
  betrivers: { margin: 0.05, lagSeconds: 9, roundToFive: true },
  fliff: { margin: 0.06, lagSeconds: 10, roundToFive: false }
};
var SGP_PREMIUMS = {
  fanduel: 0.06,
  draftkings: 0.06,
  fanatics: 0.06,
  espn: 0.07,
  betmgm: 0.08,
  caesars: 0.08,
  hardrock: 0.08,
  betrivers: 0.08,
  ballybet: 0.09,
  betparx: 0.09
};
var SGP_BOOKS = new Map(
  Object.entries(SGP_PREMIUMS).map(([book, premium]) => [
    book,
    { perLeg: PROFILES[book].margin, premium }
  ])
);
var MODELS = {
  nba: { marginScale: 7, totalScale: 9, total: 226, durationMinutes: 150, scoresPerSecond: 0.02 },
  ncaab: { marginScale: 6.5, totalScale: 8, total: 143, durationMinutes: 125, scoresPerSecond: 0.02 },
  nfl: { marginScale: 7.5, totalScale: 8, total: 45, durationMinutes: 195, scoresPerSecond: 4e-3 },
  mlb: { marginScale: 2.3, totalScale: 2.4, total: 8.5, durationMinutes: 170, scoresPerSecond: 3e-3 },
  nhl: { marginScale: 1.5, totalScale: 1.4, total: 6, durationMinutes: 150, scoresPerSecond: 2e-3 },
  epl: { marginScale: 1.1, totalScale: 1, total: 2.7, durationMinutes: 115, scoresPerSecond: 12e-4 },
  mls: { marginScale: 1.1, totalScale: 1, total: 3, durationMinutes: 115, scoresPerSecond: 12e-4 }
};
var LEAGUE_WEIGHTS = [
  ["nba", 22],
  ["ncaab", 20],
  ["nfl", 10],
  ["mlb", 10],
  ["nhl", 14],
  ["epl", 14],
  ["mls", 10]
];
var PERIOD_ENDS = {
  nba: { q1: 0.25, h1: 0.47 },
  ncaab: { h1: 0.45 },
  nfl: { q1: 0.25, h1: 0.47 },
  mlb: { f5: 0.56 },
  nhl: { p1: 0.26 },
  epl: { h1: 0.42 },
  mls: { h1: 0.42 }
};
function periodEndsAt(fixture, period) {
  if (period === "full") return fixture.endsAt;
  const fraction = PERIOD_ENDS[fixture.league][period] ?? 1;
  return fixture.startsAt + Math.round((fixture.endsAt - fixture.startsAt) * fraction);
}
function periodShare(league, period) {
  switch (period) {
    case "full":
      return 1;
    case "h1":
    case "h2":
      return LEAGUES[league].hasDraws ? 0.45 : 0.5;
    case "q1":
    case "q2":
    case "q3":
    case "q4":
      return 0.25;
    case "p1":
    case "p2":
    case "p3":
      return 1 / 3;
    case "f5":
      return 5 / 9;
  }
}
function plansFor(league) {
  if (LEAGUES[league].hasDraws)
    return [
      { type: "1x2", period: "full" },
      { type: "total", period: "full" },
      { type: "spread", period: "full" },
      { type: "total", period: "h1" }
    ];
  const base = [
    { type: "moneyline", period: "full" },
    { type: "spread", period: "full" },
    { type: "total", period: "full" }
  ];
  if (league === "nba" || league === "ncaab" || league === "nfl")
    base.push({ type: "spread", period: "h1" }, { type: "total", period: "h1" });
  if (league === "mlb") base.push({ type: "total", period: "f5" });
  if (league === "nhl") base.push({ type: "total", period: "p1" });
  return base;
}

// src/engine/sources/simulation/pricing.ts
var logistic = (x) => 1 / (1 + Math.exp(-x));
function halfLine(value) {
  return Math.floor(value) + 0.5;
}
function mainLine(fixture, plan2) {
  const half = periodShare(fixture.league, plan2.period);
  if (plan2.type === "total") return halfLine(fixture.total * half);
  if (plan2.type === "spread") {
    if (fixture.league === "mlb" || fixture.league === "nhl") return fixture.margin > 0 ? -1.5 : 1.5;
    return halfLine(-fixture.margin * half);
  }
  return null;
}
function fairProbabilities(fixture, model, plan2, line) {
  const half = periodShare(fixture.league, plan2.period);
  const marginScale = model.marginScale * Math.sqrt(half);
  const margin = fixture.margin * half;
  switch (plan2.type) {
    case "moneyline": {
      const home = logistic(margin / marginScale);
      return [1 - home, home];
    }
    case "spread": {
      const home = logistic((margin + (line ?? 0)) / marginScale);
      return [1 - home, home];
    }
    case "total": {
      const over = logistic((fixture.total * half - (line ?? 0)) / (model.totalScale * Math.sqrt(half)));
      return [over, 1 - over];
    }
    case "1x2": {
      const x = margin / marginScale;
      const draw = 0.28 * Math.exp(-x * x * 0.35);
      const home = (1 - draw) * logistic(x * 1.6);
      return [home, draw, 1 - draw - home];
    }
  }
}
function bookOdds(fair, bias, profile, live) {
  const margin = profile.margin + (live ? 0.01 : 0);
  const weighted = fair.map((p2, index) => Math.max(p2, 4e-3) * Math.exp(bias[index]));
  const sum2 = weighted.reduce((a, b) => a + b, 0);
  return weighted.map((weight) => {
    const implied = Math.min(0.985, weight / sum2 * (1 + margin));
    return bookAmerican(1 / implied, profile.roundToFive);
  });
}
function bookAmerican(decimal, roundToFive) {
  const american = decimalToAmerican(toDecimalOdds(decimal));
  const step = roundToFive && Math.abs(american) > 150 ? 5 : 1;
  return Math.round(american / step) * step;
}

// src/engine/sources/simulation/props.ts
var n = (mean, sd, scoring = 1) => ({ mean, sd, scoring });
var p = (mean, scoring = 1) => ({ mean, scoring });
var ROLE_COUNTERS = {
  star: { pts: n(27, 7), reb: n(7, 2.8, 0.5), ast: n(6, 2.5, 0.5), threes: p(2.6) },
  guard: { pts: n(19, 6), reb: n(4, 2, 0.5), ast: n(7, 2.6, 0.5), threes: p(2.8) },
  wing: { pts: n(15, 5.5), reb: n(5.5, 2.4, 0.5), ast: n(3, 1.8, 0.5), threes: p(2.2) },
  big: { pts: n(16, 5.5), reb: n(11, 3.3, 0.5), ast: n(2.5, 1.6, 0.5), threes: p(0.6) },
  qb: { pass_yds: n(245, 62), pass_tds: p(1.7), rush_yds: n(18, 14), tds: p(0.12) },
  rb1: { rush_yds: n(68, 28), receptions: p(3), rec_yds: n(22, 16), tds: p(0.55) },
  rb2: { rush_yds: n(32, 18), receptions: p(1.6), rec_yds: n(11, 10), tds: p(0.28) },
  wr1: { rec_yds: n(72, 30), receptions: p(5.5), tds: p(0.45) },
  wr2: { rec_yds: n(52, 25), receptions: p(4.2), tds: p(0.32) },
  wr3: { rec_yds: n(33, 20), receptions: p(2.8), tds: p(0.2) },
  te: { rec_yds: n(42, 22), receptions: p(3.8), tds: p(0.3) },
  batter_top: { hits: p(1), total_bases: p(1.55) },
  sp: { strikeouts: p(6, 0) },
  forward_top: { sog: p(2.9, 0.4), hockey_points: p(0.8), goals: p(0.33) },
  defenceman: { sog: p(2.1, 0.3), hockey_points: p(0.45), goals: p(0.1) },
  striker: { shots: p(3, 0.5), shots_on_target: p(1.25, 0.5), goals: p(0.45) },
  attacker: { shots: p(2, 0.5), shots_on_target: p(0.8, 0.5), goals: p(0.27) }
};
function counterModel(league, player, counter) {
  const base = ROLE_COUNTERS[player.role]?.[counter];
  if (!base) return void 0;
  const scale = league === "ncaab" ? counter === "pts" || counter === "threes" ? 0.72 : 0.85 : 1;
  const mean = base.mean * scale * player.rating;
  return {
    mean,
    sd: base.sd === void 0 ? void 0 : base.sd * Math.sqrt(scale * player.rating),
    scoring: base.scoring
  };
}
var plan = (stat, counters, options = {}) => ({
  stat,
  period: options.period ?? "full",
  counters,
  alternates: options.alternates ?? false
});
function rolePlans(league, role) {
  const nba = league === "nba";
  switch (role) {
    case "star":
      return [
        plan("player_points", ["pts"], { alternates: true }),
        plan("player_rebounds", ["reb"]),
        plan("player_assists", ["ast"]),
        plan("player_threes", ["threes"]),
        plan("player_points_rebounds_assists", ["pts", "reb", "ast"], { alternates: true }),
        plan("player_double_double", ["pts", "reb", "ast"]),
        ...nba ? [plan("player_points", ["pts"], { period: "q1" })] : []
      ];
    case "guard":
      return [
        plan("player_points", ["pts"], { alternates: nba }),
        plan("player_rebounds", ["reb"]),
        plan("player_assists", ["ast"]),
        plan("player_threes", ["threes"]),
        plan("player_points_rebounds_assists", ["pts", "reb", "ast"])
      ];
    case "wing":
      return [
        plan("player_points", ["pts"]),
        plan("player_rebounds", ["reb"]),
        plan("player_assists", ["ast"]),
        plan("player_threes", ["threes"]),
        plan("player_points_rebounds_assists", ["pts", "reb", "ast"])
      ];
    case "big":
      return [
        plan("player_points", ["pts"]),
        plan("player_rebounds", ["reb"], { alternates: nba }),
        plan("player_assists", ["ast"]),
        plan("player_points_rebounds_assists", ["pts", "reb", "ast"]),
        plan("player_double_double", ["pts", "reb", "ast"]),
        ...nba ? [plan("player_rebounds", ["reb"], { period: "q1" })] : []
      ];
    case "qb":
      return [
        plan("player_pass_yds", ["pass_yds"], { alternates: true }),
        plan("player_pass_tds", ["pass_tds"]),
        plan("player_rush_yds", ["rush_yds"]),
        plan("player_pass_yds", ["pass_yds"], { period: "q1" })
      ];
    case "rb1":
      return [
        plan("player_rush_yds", ["rush_yds"], { alternates: true }),
        plan("player_receptions", ["receptions"]),
        plan("player_anytime_td", ["tds"])
      ];
    case "rb2":
      return [plan("player_rush_yds", ["rush_yds"]), plan("player_anytime_td", ["tds"])];
    case "wr1":
    case "te":
      return [
        plan("player_reception_yds", ["rec_yds"], { alternates: role === "wr1" }),
        plan("player_receptions", ["receptions"]),
        plan("player_anytime_td", ["tds"])
      ];
    case "wr2":
      return [
        plan("player_reception_yds", ["rec_yds"]),
        plan("player_receptions", ["receptions"]),
        plan("player_anytime_td", ["tds"])
      ];
    case "wr3":
      return [plan("player_anytime_td", ["tds"])];
    case "batter_top":
      return [plan("batter_hits", ["hits"]), plan("batter_total_bases", ["total_bases"])];
    case "sp":
      return [plan("pitcher_strikeouts", ["strikeouts"])];
    case "forward_top":
      return [
        plan("player_shots_on_goal", ["sog"]),
        plan("player_points", ["hockey_points"]),
        plan("player_goal_scorer_anytime", ["goals"])
      ];
    case "defenceman":
      return [plan("player_shots_on_goal", ["sog"])];
    case "striker":
    case "attacker":
      return [
        plan("player_shots", ["shots"]),
        plan("player_shots_on_target", ["shots_on_target"]),
        plan("player_goal_scorer_anytime", ["goals"])
      ];
    default:
      return [];
  }
}
var PROP_PLAYERS_PER_ROLE = {
  // College boards are thinner: no wing props (below).
  star: 1,
  guard: 1,
  wing: 1,
  big: 1,
  qb: 1,
  rb1: 1,
  rb2: 1,
  wr1: 1,
  wr2: 1,
  wr3: 1,
  te: 1,
  batter_top: 5,
  sp: 1,
  forward_top: 4,
  defenceman: 1,
  striker: 1,
  attacker: 3
};
function propsFor(league, roster) {
  const out = [];
  const seen = /* @__PURE__ */ new Map();
  for (const player of roster) {
    const count = seen.get(player.role) ?? 0;
    seen.set(player.role, count + 1);
    const limit = league === "ncaab" && player.role === "wing" ? 0 : PROP_PLAYERS_PER_ROLE[player.role] ?? 0;
    if (count >= limit) continue;
    for (const partial of rolePlans(league, player.role)) {
      const def = propStat(league, partial.stat);
      if (!def || !def.periods.includes(partial.period)) continue;
      out.push({ player, plan: { ...partial, kind: def.kind } });
    }
  }
  return out;
}
function periodShare2(period) {
  return period === "q1" ? { share: 0.26, endsAt: 0.25 } : { share: 1, endsAt: 1 };
}
function normalCdf2(z) {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + y) / 2 : (1 - y) / 2;
}
function poissonAtLeast(lambda, k) {
  if (k <= 0) return 1;
  if (lambda <= 0) return 0;
  let term = Math.exp(-lambda);
  let below = term;
  for (let i = 1; i < k; i += 1) {
    term *= lambda / i;
    below += term;
  }
  return Math.max(0, 1 - below);
}
function overProbability(line, sofar, remaining) {
  const need = line - sofar;
  if (need < 0) return 1;
  let mean = 0;
  let variance = 0;
  let normal2 = false;
  for (const part of remaining) {
    mean += part.mean;
    if (part.sd !== void 0) {
      normal2 = true;
      variance += part.sd * part.sd;
    } else variance += part.mean;
  }
  if (normal2) {
    if (variance <= 1e-9) return mean > need ? 1 : 0;
    return 1 - normalCdf2((need - mean) / Math.sqrt(variance));
  }
  return poissonAtLeast(mean, Math.ceil(need));
}
function doubleDoubleProbability(sofar, remaining) {
  const ten = (have, rest) => overProbability(9.5, have, [rest]);
  const pts = ten(sofar.pts, remaining.pts);
  const other = 1 - (1 - ten(sofar.reb, remaining.reb)) * (1 - ten(sofar.ast, remaining.ast));
  return pts * other;
}
function evenLine(overAt, guess) {
  let line = Math.max(0.5, Math.floor(guess) + 0.5);
  let distance = Math.abs(overAt(line) - 0.5);
  for (const direction of [1, -1]) {
    for (; ; ) {
      const next = line + direction;
      if (next < 0.5) break;
      const d = Math.abs(overAt(next) - 0.5);
      if (d >= distance) break;
      line = next;
      distance = d;
    }
  }
  return line;
}

// src/engine/sources/simulation/rosters.ts
var SOCCER_ROLES = [
  "striker",
  "attacker",
  "attacker",
  "attacker",
  "midfielder",
  "midfielder",
  "midfielder",
  "keeper_or_back",
  "keeper_or_back",
  "keeper_or_back",
  "keeper_or_back",
  "keeper_or_back",
  "attacker",
  "midfielder"
];
var ROSTER_ROLES = {
  nba: ["star", "guard", "wing", "big", "guard", "wing", "big", "bench", "bench", "bench"],
  ncaab: ["star", "guard", "wing", "big", "guard", "bench", "bench", "bench", "bench"],
  nfl: ["qb", "rb1", "rb2", "wr1", "wr2", "wr3", "te", "defence", "defence", "defence", "defence", "defence"],
  mlb: [
    "batter_top",
    "batter_top",
    "batter_top",
    "batter_top",
    "batter_top",
    "batter",
    "batter",
    "batter",
    "batter",
    "sp",
    "rp",
    "rp"
  ],
  nhl: [
    "forward_top",
    "forward_top",
    "forward_top",
    "forward_top",
    "defenceman",
    "forward",
    "forward",
    "forward",
    "forward",
    "defenceman",
    "defenceman",
    "defenceman",
    "goalie"
  ],
  epl: SOCCER_ROLES,
  mls: SOCCER_ROLES
};
var words = (text2) => text2.trim().split(/\s+/);
var FIRST_US = words(`
  Jalen Marcus Darius Tyrese Jaylen Malik Devin Cameron Jordan Isaiah Trey Xavier Keegan Brandon Elijah Josh Tyler
  Caleb Jamal Andre Terrence Kendrick Desmond Nolan Grant Austin Colby Derrick Quentin Rashad Shane Landon Brock Wyatt
  Cody Garrett Hunter Mason Logan Bryce Chase Dalton Reggie Corey Aaron Dominic Jonah Miles Damon Kevin Luke Nathan
  Evan Trevor Cole Jace Kobe Zion Amari Keon Jaxon Brady Tanner Kyle Zach Owen Jarrett Emmett Riley Tucker Devonte
  Kameron Dante Myles Rasheed Lamar Javon Deandre Bennett Spencer Holden Gavin
`);
var INITIALS = words(`C.J. D.J. A.J. T.J. P.J. R.J. J.J. K.J.`);
var FIRST_INTL = words(`
  Jos\xE9 Andr\xE9s J\xE9r\xF4me Ma\xEBl Bj\xF6rn \u0141ukasz S\xF8ren Tom\xE1\u0161 D\u0101vis Ra\xFAl Joaqu\xEDn Th\xE9o Beno\xEEt Jon\xE1\u0161 Nikolaj I\xF1aki No\xE9 Rasmus Mat\xEDas
  S\xE9bastien Fr\xE9d\xE9ric \xC5ngel \xD6mer \xC7a\u011Flar Krist\xF3f Dominik Mateus Jo\xE3o Lu\xEDs Stefan Vasilije Aleksej Nikola Goran Luka
  Mikkel Emil Hugo Lucas Mateo Santiago Thiago Leandro Federico \xC1lvaro Sergio \xCD\xF1igo Kacper Jakub Ond\u0159ej Patrik
`);
var SURNAMES_COMMON = words(`
  Williams Johnson Smith Brown Jones Davis Miller Wilson Moore Taylor Anderson Thomas Jackson White Harris Martin
  Thompson Robinson Walker Green
`);
var SURNAMES_US = words(`
  Holloway Prescott Whitfield Barnett Caldwell Dawkins Fairbanks Gaines Hargrove Jennings Kessler Langford Maddox
  Norwood Oakley Pickett Quarles Rutledge Sutton Tillman Underwood Vaughn Whitaker Yarbrough Ashford Blanchard Crenshaw
  Dorsey Ellison Fontaine Gentry Hollins Ingram Jeffries Kimble Lockett Merriweather Nance Overton Pritchard Ransom
  Sampson Toliver Upshaw Varner Wardell Bradford Colvin Duckett Easley Fulton Goodwin Haskins Irving Jefferson Kirkland
  Lowery Mathis Newsome Orton Peyton Rowland Stallworth Talbert Vance Winslow Bostic Coley Dempsey Everett Fields
  Griffin Hubbard Ivey Knox Lyles McAllister McBride McKinnon McCaffery MacKenzie O'Neal O'Connell D'Antoni
  Banks Carver Drummond Elam Flagg Glover Hester Jett Kearse Lattimore Mosley Nash Odom Parrish Reddick Simmons Tatum
`);
var SURNAMES_INTL = words(`
  Pe\xF1a N\xFA\xF1ez Jim\xE9nez Dvo\u0159\xE1k Lindqvist M\xFCller \xD8stergaard Kov\xE1\u010D \u0160imi\u0107 Gon\xE7alves Brand\xE3o \u0141\u0119cki Ib\xE1\xF1ez S\xF8rensen H\xE5kansson
  Vu\u010Devi\u0107 Bogdanovi\u0107 Markovi\u0107 Jokanovi\u0107 Rodr\xEDguez Fern\xE1ndez Guti\xE9rrez Hern\xE1ndez S\xE1nchez \xC1lvarez Ort\xEDz C\xE1rdenas Dumont
  Lef\xE8vre B\xE9langer C\xF4t\xE9 Gagn\xE9 L\xE9vesque Pelletier K\xE4rkk\xE4inen M\xE4kinen Niemel\xE4 \xD6zt\xFCrk Y\u0131lmaz \xC7elik Sch\xE4fer Kr\xFCger Wei\xDF
  Nowak W\xF3jcik Kowalczyk Nov\xE1k Horv\xE1th Szab\xF3 Kuznetsov Petrov Ivanovi\u0107 Jovanovi\u0107 Costa Silva Ara\xFAjo Concei\xE7\xE3o
  Barbosa Moreau Girard Rossi Bianchi Esposito Romano Kj\xE6rgaard Lundstr\xF6m Ekstr\xF6m Vidal Soler
`);
function hash32(text2) {
  let h = 2166136261;
  for (let index = 0; index < text2.length; index += 1) h = Math.imul(h ^ text2.charCodeAt(index), 16777619);
  return h >>> 0;
}
var SUFFIXES2 = ["Jr.", "Jr.", "Jr.", "II", "III"];
var looseKey = (name) => name.normalize("NFD").replace(new RegExp("\\p{M}+", "gu"), "").toLowerCase().replace(/[^a-z ]/g, "");
function teamRoster(seed, league, abbreviation) {
  const random = seededRandom(hash32(`${seed}|${league}|${abbreviation}`));
  const pick = (items) => items[Math.floor(random() * items.length)];
  const international = league === "epl" || league === "mls" ? 0.55 : league === "nhl" ? 0.35 : 0.12;
  const surnamesTaken = /* @__PURE__ */ new Set();
  const slug2 = abbreviation.toLowerCase().replace(/[^a-z0-9]/g, "");
  return ROSTER_ROLES[league].map((role, slot) => {
    let name = "";
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const intl = random() < international;
      const roll = random();
      const first = intl ? pick(FIRST_INTL) : roll < 0.07 ? pick(INITIALS) : pick(FIRST_US);
      const surnameRoll = random();
      const surname = intl ? pick(SURNAMES_INTL) : surnameRoll < 0.22 ? pick(SURNAMES_COMMON) : pick(SURNAMES_US);
      if (surnamesTaken.has(looseKey(surname))) continue;
      const suffix = !intl && league !== "epl" && league !== "mls" && random() < 0.07 ? ` ${pick(SUFFIXES2)}` : "";
      surnamesTaken.add(looseKey(surname));
      name = `${first} ${surname}${suffix}`;
      break;
    }
    const rating = 0.8 + random() * 0.4;
    return { id: `sim-${league}-${slug2}-${String(slot + 1).padStart(2, "0")}`, name, role, rating };
  });
}

// src/engine/sources/simulation/prop-simulator.ts
var PROP_BOOKS = {
  circa: { coverage: 0, naming: "id" },
  betonline: { coverage: 0.5, naming: "name_only" },
  bodog: { coverage: 0.45, naming: "name" },
  fanduel: { coverage: 0.9, naming: "id" },
  draftkings: { coverage: 0.9, naming: "id" },
  betmgm: { coverage: 0.75, naming: "id" },
  caesars: { coverage: 0.7, naming: "id" },
  espn: { coverage: 0.6, naming: "id" },
  fanatics: { coverage: 0.6, naming: "id" },
  hardrock: { coverage: 0.4, naming: "id" },
  hardrock_in: { coverage: 0, naming: "id" },
  ballybet: { coverage: 0.3, naming: "id" },
  betparx: { coverage: 0.3, naming: "id" },
  betrivers: { coverage: 0.5, naming: "id" },
  fliff: { coverage: 0.35, naming: "name" }
};
var ALTERNATE_COVERAGE = {
  fanduel: 0.8,
  draftkings: 0.8,
  betmgm: 0.6,
  caesars: 0.5,
  espn: 0.4,
  fanatics: 0.4
};
var PROP_EXTRA_MARGIN = 0.02;
var SKEW_SD = 0.03;
var SKEW_TAU_MS = 15 * 6e4;
var BIAS_SD = 0.015;
var BIAS_TAU_MS = 3 * 6e4;
var PREMATCH_LAG_FACTOR = 4;
var LIVE_LAG_FACTOR = 2.5;
var PREMATCH_GAP_CAP_MS = 45e3;
var LIVE_GAP_CAP_MS = 8e3;
var IN_PLAY_KEEP = { main: 0.45, alternate: 0.25 };
var SCORE_SUSPEND_SHARE = 0.3;
var RANDOM_SUSPEND_PER_QUOTE = 0.01;
var STAT_REQUOTE_MS = [1e3, 4e3];
var OFFER_RANGE = [0.04, 0.96];
var RECENTRE_RANGE = [0.3, 0.7];
var ALTERNATE_SHARE = 0.6;
var PropSimulator = class {
  constructor(seed) {
    this.seed = seed;
    this.random = seededRandom((seed ^ 1540483477) >>> 0);
  }
  seed;
  random;
  rosters = /* @__PURE__ */ new Map();
  /** A stat change took props down during this step (their due times moved earlier than the step had counted). */
  reacted = false;
  poisson(lambda) {
    if (lambda <= 0) return 0;
    if (lambda > 30) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * gaussian(this.random)));
    const limit = Math.exp(-lambda);
    let k = 0;
    let product = this.random();
    while (product > limit) {
      k += 1;
      product *= this.random();
    }
    return k;
  }
  teamRoster(league, abbreviation) {
    const key = `${league}|${abbreviation}`;
    let roster = this.rosters.get(key);
    if (!roster) {
      roster = teamRoster(this.seed, league, abbreviation);
      this.rosters.set(key, roster);
    }
    return roster;
  }
  /** The fixture's props: its rosters, the props the books hang and which books quote each (nothing sent yet). */
  create(event) {
    const sides = [
      ["home", this.teamRoster(event.league, event.home[1])],
      ["away", this.teamRoster(event.league, event.away[1])]
    ];
    const roster = sides.flatMap(
      ([side, players]) => players.map((player) => ({ id: player.id, name: player.name, team: side }))
    );
    const names = /* @__PURE__ */ new Map();
    const surnames = /* @__PURE__ */ new Map();
    for (const entry of roster) {
      const name = normalizePlayerName(entry.name);
      names.set(name, (names.get(name) ?? 0) + 1);
      surnames.set(surnameOf(name), (surnames.get(surnameOf(name)) ?? 0) + 1);
    }
    const markets = [];
    for (const [side, players] of sides) {
      const states2 = /* @__PURE__ */ new Map();
      for (const { player, plan: plan2 } of propsFor(event.league, players)) {
        let state = states2.get(player.id);
        if (!state) {
          const name = normalizePlayerName(player.name);
          state = {
            player,
            side,
            sofar: Object.fromEntries(countersOf(event.league, player).map((counter) => [counter, 0])),
            counters: countersOf(event.league, player).map((counter) => {
              const model = counterModel(event.league, player, counter);
              return {
                counter,
                model,
                chunk: model.sd === void 0 ? 1 : model.sd * model.sd / model.mean
              };
            }),
            at: 0,
            markets: [],
            sharedSurname: (names.get(name) ?? 0) > 1 || (surnames.get(surnameOf(name)) ?? 0) > 1
          };
          states2.set(player.id, state);
        }
        const models = plan2.counters.map((counter) => counterModel(event.league, player, counter));
        const group = { line: null };
        const main = this.createMarket(event, markets.length, state, plan2, models, group, 0);
        group.main = main;
        markets.push(main);
        const eligible = plan2.alternates && plan2.kind === "over_under" && models.every((m) => m?.sd !== void 0);
        if (eligible && this.random() < ALTERNATE_SHARE) {
          const sd = Math.sqrt(models.reduce((sum2, m) => sum2 + m.sd * m.sd, 0));
          const distance = Math.max(2, Math.round(sd * 0.8)) * (this.random() < 0.5 ? -1 : 1);
          markets.push(this.createMarket(event, markets.length, state, plan2, models, group, distance));
        }
      }
    }
    return { roster, markets, nextDue: -Infinity };
  }
  createMarket(event, index, player, plan2, models, group, alternate) {
    const books = [];
    const normal2 = models.every((m) => m?.sd !== void 0);
    for (const [book, config] of Object.entries(PROP_BOOKS)) {
      const coverage = alternate === 0 ? config.coverage : ALTERNATE_COVERAGE[book] ?? 0;
      if (this.random() >= coverage) continue;
      if (config.naming !== "id" && player.sharedSurname && book !== "fliff") continue;
      const roll = this.random();
      books.push({
        book,
        player: this.naming(book, config, player),
        offset: alternate === 0 && plan2.kind === "over_under" && normal2 && roll < 0.2 ? roll < 0.1 ? 1 : -1 : 0,
        skew: gaussian(this.random) * SKEW_SD,
        bias: [gaussian(this.random) * BIAS_SD, gaussian(this.random) * BIAS_SD],
        driftAt: 0,
        nextQuoteAt: 0,
        shown: void 0,
        shownOdds: [],
        linksFor: void 0,
        offline: false
      });
    }
    const parts = models.map(() => ({ mean: 0, sd: void 0 }));
    const market = {
      index,
      player,
      plan: plan2,
      models,
      parts,
      group,
      alternate,
      books,
      nextDue: -Infinity,
      closed: false
    };
    player.markets.push(market);
    return market;
  }
  /** How a book names the player: by the roster's id, or by name in its own spelling (the engine must match it). */
  naming(book, config, state) {
    const { player, side } = state;
    if (config.naming === "id") return { id: player.id, name: player.name, team: side };
    const name = spelling(book, player.name);
    return config.naming === "name" ? { name, team: side } : { name };
  }
  /** The fraction of the game played (0 before kick-off). */
  progress(event, now) {
    if (!event.live) return 0;
    return Math.min(1, Math.max(0, (now - event.startsAt) / (event.endsAt - event.startsAt)));
  }
  /** How the player's team's expected score compares with the league's typical one, raised to the stat's `scoring`. */
  scoringFactor(event, side, model) {
    const typical = MODELS[event.league].total / 2;
    const expected = (event.total + (side === "home" ? event.margin : -event.margin)) / 2;
    const ratio = Math.min(1.6, Math.max(0.5, expected / typical));
    return model.scoring === 0 ? 1 : ratio ** model.scoring;
  }
  /**
   * Accumulates the player's counters up to the game fraction `f` (compound Poisson: unbiased, never decreasing).
   * Returns the counters whose count (the floor) moved, or null.
   */
  advance(event, state, f) {
    if (f <= state.at) return null;
    const df = f - state.at;
    state.at = f;
    let moved = null;
    for (const entry of state.counters) {
      const mean = entry.model.mean * this.scoringFactor(event, state.side, entry.model) * df;
      const before = state.sofar[entry.counter] ?? 0;
      const after = before + entry.chunk * this.poisson(mean / entry.chunk);
      state.sofar[entry.counter] = after;
      if (Math.floor(after) !== Math.floor(before)) (moved ??= []).push(entry.counter);
    }
    return moved;
  }
  /**
   * The player's count moved in play (he scored, caught a pass…): every book takes down his props that read a counter
   * that moved and re-prices them STAT_REQUOTE_MS later, as books suspend a player's props on the play. Without it a
   * book still showing the line from before the play stood against one priced after it: the arbs of 20–90 % that
   * lived for seconds (issue 34).
   */
  react(event, player, moved, now, out) {
    for (const market of player.markets) {
      if (market.closed || !market.plan.counters.some((counter) => moved.includes(counter))) continue;
      for (const book of market.books) {
        if (book.offline) continue;
        this.takeDown(event, market, book, out);
        book.nextQuoteAt = now + STAT_REQUOTE_MS[0] + this.random() * (STAT_REQUOTE_MS[1] - STAT_REQUOTE_MS[0]);
      }
      market.nextDue = Math.min(Infinity, ...market.books.map((b) => b.nextQuoteAt));
      this.reacted = true;
    }
  }
  /** Takes down for good, at every book, the period props whose period is over at `now` (the game clock, PERIOD_ENDS). */
  closePeriods(event, props, now, out) {
    for (const market of props.markets) {
      if (market.closed || market.plan.period === "full" || now < periodEndsAt(event, market.plan.period))
        continue;
      market.closed = true;
      for (const book of market.books) {
        this.takeDown(event, market, book, out);
        book.offline = true;
        book.nextQuoteAt = Infinity;
      }
      market.nextDue = Infinity;
    }
  }
  /** P(over) (or P(yes)) of the market at a line, for a projection off by `skew` standard deviations of what is left. */
  fair(event, market, line, f, skew) {
    const { plan: plan2, models, player, parts } = market;
    const { share, endsAt } = periodShare2(plan2.period);
    const left = Math.max(0, endsAt - f) * (share / endsAt);
    let sofar = 0;
    let variance = 0;
    for (let index = 0; index < models.length; index += 1) {
      const model = models[index];
      const mean = model.mean * this.scoringFactor(event, player.side, model) * left;
      const chunk = model.sd === void 0 ? 1 : model.sd * model.sd / model.mean;
      const part = parts[index];
      part.mean = mean;
      part.sd = model.sd === void 0 ? void 0 : Math.sqrt(chunk * mean);
      variance += chunk * mean;
      sofar += Math.floor(player.sofar[plan2.counters[index]] ?? 0);
    }
    if (plan2.stat === "player_double_double") {
      for (const part of parts) part.mean = Math.max(0, part.mean + skew * (part.sd ?? Math.sqrt(part.mean)));
      const count = (counter) => Math.floor(player.sofar[counter] ?? 0);
      return doubleDoubleProbability(
        { pts: count("pts"), reb: count("reb"), ast: count("ast") },
        { pts: parts[0], reb: parts[1], ast: parts[2] }
      );
    }
    parts[0].mean = Math.max(0, parts[0].mean + skew * Math.sqrt(variance));
    if (plan2.kind === "yes_no") {
      if (sofar >= 1) return 1;
      let mean = 0;
      for (const part of parts) mean += part.mean;
      return 1 - Math.exp(-mean);
    }
    return overProbability(line, sofar, parts);
  }
  /** Re-centres the stat's consensus main line when its over probability left RECENTRE_RANGE. */
  recentre(event, group, f) {
    const market = group.main;
    if (market.plan.kind !== "over_under") return;
    const line = group.line;
    if (line !== null) {
      const p2 = this.fair(event, market, line, f, 0);
      if (p2 >= RECENTRE_RANGE[0] && p2 <= RECENTRE_RANGE[1]) return;
    }
    let guess = 0;
    market.plan.counters.forEach((counter, index) => {
      guess += Math.floor(market.player.sofar[counter] ?? 0) + market.models[index].mean * (1 - f);
    });
    group.line = evenLine((at) => this.fair(event, market, at, f, 0), guess);
  }
  /** The fixture's first quotes (every book of every prop) at `now`. */
  initial(event, props, now) {
    const out = [];
    if (event.live) {
      this.takeDownOffline(event, props, now, out);
      this.closePeriods(event, props, now, out);
    }
    for (const market of props.markets) {
      for (const book of market.books) if (!book.offline) this.quote(event, market, book, now, out);
      market.nextDue = Math.min(...market.books.map((b) => b.nextQuoteAt));
    }
    props.nextDue = Math.min(Infinity, ...props.markets.map((m) => m.nextDue));
    return out;
  }
  /** A fixture listed at run time: every book's first quote within two seconds. */
  schedule(props, now, withinMs) {
    for (const market of props.markets) {
      for (const book of market.books) if (!book.offline) book.nextQuoteAt = now + this.random() * withinMs;
      market.nextDue = Math.min(Infinity, ...market.books.map((b) => b.nextQuoteAt));
    }
    props.nextDue = Math.min(Infinity, ...props.markets.map((m) => m.nextDue));
  }
  /** At kick-off: each book takes down the props it does not offer in play, and re-quotes the rest within 1.5 s. */
  kickOff(event, props, now) {
    const out = [];
    this.takeDownOffline(event, props, now, out);
    this.schedule(props, now, 1500);
    return out;
  }
  takeDownOffline(event, props, now, out) {
    for (const market of props.markets) {
      const keep = market.alternate === 0 ? IN_PLAY_KEEP.main : IN_PLAY_KEEP.alternate;
      for (const book of market.books) {
        if (this.random() < keep) continue;
        book.offline = true;
        book.nextQuoteAt = Infinity;
        this.takeDown(event, market, book, out);
      }
    }
  }
  /** One step of the fixture's props: scores suspend some of them; books re-quote the ones due. */
  step(event, props, now, scored) {
    const out = [];
    if (event.live) this.closePeriods(event, props, now, out);
    if (scored) {
      for (const market of props.markets) {
        if (this.random() >= SCORE_SUSPEND_SHARE) continue;
        const until = now + 3e3 + this.random() * 6e3;
        for (const book of market.books) {
          if (book.offline) continue;
          this.takeDown(event, market, book, out);
          book.nextQuoteAt = Math.max(book.nextQuoteAt, until);
        }
        market.nextDue = Math.min(...market.books.map((b) => b.nextQuoteAt));
      }
      props.nextDue = Math.min(Infinity, ...props.markets.map((m) => m.nextDue));
    }
    if (now < props.nextDue) return out;
    let nextDue = Infinity;
    for (const market of props.markets) {
      if (now >= market.nextDue) {
        let due = Infinity;
        for (const book of market.books) {
          if (now >= book.nextQuoteAt) {
            if (event.live && this.random() < RANDOM_SUSPEND_PER_QUOTE) {
              this.takeDown(event, market, book, out);
              book.nextQuoteAt = now + 5e3 + this.random() * 15e3;
            } else this.quote(event, market, book, now, out);
          }
          due = Math.min(due, book.nextQuoteAt);
        }
        market.nextDue = due;
      }
      nextDue = Math.min(nextDue, market.nextDue);
    }
    props.nextDue = nextDue;
    if (this.reacted) {
      this.reacted = false;
      for (const market of props.markets)
        market.nextDue = Math.min(Infinity, ...market.books.map((b) => b.nextQuoteAt));
      props.nextDue = Math.min(Infinity, ...props.markets.map((m) => m.nextDue));
    }
    return out;
  }
  gap(book, live) {
    const lag = PROFILES[book].lagSeconds * 1e3;
    const mean = live ? lag * 0.35 * LIVE_LAG_FACTOR : lag * PREMATCH_LAG_FACTOR;
    return Math.min(-Math.log(1 - this.random()) * mean, live ? LIVE_GAP_CAP_MS : PREMATCH_GAP_CAP_MS);
  }
  /** The book's lean and projection error wander (mean-reverting), drawn lazily over the time since it last quoted. */
  drift(book, now) {
    const dt = book.driftAt === 0 ? 0 : now - book.driftAt;
    book.driftAt = now;
    if (dt <= 0) return;
    const skewKeep = Math.exp(-dt / SKEW_TAU_MS);
    book.skew = book.skew * skewKeep + SKEW_SD * Math.sqrt(1 - skewKeep * skewKeep) * gaussian(this.random);
    const biasKeep = Math.exp(-dt / BIAS_TAU_MS);
    const biasStep = BIAS_SD * Math.sqrt(1 - biasKeep * biasKeep);
    book.bias[0] = book.bias[0] * biasKeep + biasStep * gaussian(this.random);
    book.bias[1] = book.bias[1] * biasKeep + biasStep * gaussian(this.random);
  }
  /** One book's quote of one prop (both outcomes), or its taking down the line when settled or lopsided. */
  quote(event, market, book, now, out) {
    book.nextQuoteAt = now + this.gap(book.book, event.live);
    const f = this.progress(event, now);
    const moved = this.advance(event, market.player, f);
    if (moved && event.live) this.react(event, market.player, moved, now, out);
    this.drift(book, now);
    this.recentre(event, market.group, f);
    const point = market.plan.kind === "yes_no" ? null : market.group.line + market.alternate + book.offset;
    const p2 = point !== null && point < 0.5 ? NaN : this.fair(event, market, point, f, book.skew);
    if (!(p2 >= OFFER_RANGE[0] && p2 <= OFFER_RANGE[1])) {
      this.takeDown(event, market, book, out);
      return;
    }
    if (book.shown !== void 0 && book.shown !== point) this.takeDown(event, market, book, out);
    const odds = bookOdds([p2, 1 - p2], book.bias, propProfile(book.book), event.live);
    const links = book.linksFor !== point;
    book.linksFor = point;
    book.shown = point;
    book.shownOdds = odds;
    const outcomes = propOutcomes(market.plan.kind);
    for (let index = 0; index < 2; index += 1) {
      const outcome = outcomes[index];
      const message = this.message(event, market, book, point, outcome);
      message.american = odds[index];
      if (links) message.links = simulatedLinks(book.book);
      out.push(message);
    }
  }
  /** Suspends the book's shown line (both outcomes, at the odds it last showed). */
  takeDown(event, market, book, out) {
    if (book.shown === void 0) return;
    const point = book.shown;
    book.shown = void 0;
    const outcomes = propOutcomes(market.plan.kind);
    for (let index = 0; index < 2; index += 1) {
      const message = this.message(event, market, book, point, outcomes[index]);
      message.american = book.shownOdds[index];
      message.suspended = true;
      out.push(message);
    }
  }
  message(event, market, book, point, outcome) {
    return {
      kind: "price",
      sourceEventId: event.sourceEventId,
      book: book.book,
      market: "prop",
      stat: market.plan.stat,
      period: market.plan.period,
      player: book.player,
      point,
      outcome
    };
  }
};
var propProfiles = /* @__PURE__ */ new Map();
function propProfile(book) {
  let profile = propProfiles.get(book);
  if (!profile) {
    profile = { ...PROFILES[book], margin: PROFILES[book].margin + PROP_EXTRA_MARGIN };
    propProfiles.set(book, profile);
  }
  return profile;
}
var roleCounters = /* @__PURE__ */ new Map();
function countersOf(league, player) {
  const key = `${league}|${player.role}`;
  let counters = roleCounters.get(key);
  if (!counters) {
    counters = ALL_COUNTERS.filter((counter) => counterModel(league, player, counter) !== void 0);
    roleCounters.set(key, counters);
  }
  return counters;
}
var ALL_COUNTERS = [
  "pts",
  "reb",
  "ast",
  "threes",
  "pass_yds",
  "pass_tds",
  "rush_yds",
  "rec_yds",
  "receptions",
  "tds",
  "hits",
  "total_bases",
  "strikeouts",
  "sog",
  "hockey_points",
  "goals",
  "shots",
  "shots_on_target"
];
function spelling(book, name) {
  const variants = [
    name,
    name.normalize("NFD").replace(new RegExp("\\p{M}+", "gu"), ""),
    name.replace(/\s+(Jr\.|Sr\.|II|III|IV)$/, ""),
    name.toUpperCase(),
    name.replace(/\b([A-Z])\.([A-Z])\./, "$1. $2.")
  ];
  const variant = variants[hash32(`${book}|${name}`) % variants.length];
  return normalizePlayerName(variant) === normalizePlayerName(name) ? variant : name;
}

// src/engine/sources/simulation/seasons.ts
var SEASONS = {
  // Week 1 on the Thursday after Labor Day; the Super Bowl on the second Sunday of February.
  nfl: { from: [9, 3], to: [2, 14] },
  // Opening night in the third week of October; the Finals end in mid to late June.
  nba: { from: [10, 20], to: [6, 20] },
  // Opening night in early October; the Stanley Cup Final ends in mid to late June.
  nhl: { from: [10, 7], to: [6, 20] },
  // Opening Day in the last week of March; the World Series can reach the first days of November.
  mlb: { from: [3, 26], to: [11, 1] },
  // Men's college basketball: tip-off in the first week of November; the national final in early April.
  ncaab: { from: [11, 3], to: [4, 6] },
  // The Premier League plays mid-August to late May, through the holidays: it has no winter break.
  epl: { from: [8, 15], to: [5, 24] },
  // MLS: late February to MLS Cup in early December.
  mls: { from: [2, 21], to: [12, 6] }
};
var dayOfYear = ([month, day]) => month * 100 + day;
function within(at, from, to) {
  const start = dayOfYear(from);
  const end = dayOfYear(to);
  return start <= end ? at >= start && at <= end : at >= start || at <= end;
}
function inSeason(league, ms) {
  const date = new Date(ms);
  const at = dayOfYear([date.getUTCMonth() + 1, date.getUTCDate()]);
  const season = SEASONS[league];
  if (!within(at, season.from, season.to)) return false;
  return !(season.breaks ?? []).some(([from, to]) => within(at, from, to));
}

// src/engine/sources/simulation/market-simulator.ts
var INITIAL_ENDS_SPAN_MS = Math.min(...Object.values(MODELS).map((model) => model.durationMinutes)) * 6e4 - 3e5;
var SOON_SHARE = 0.3;
var SOON_AT_LEAST_EVERY_MS = 10 * 6e4;
var SOON_LEAD_MINUTES = [3, 5];
var SCORE_SUSPEND_SHARE2 = 0.85;
var SCORE_REQUOTE_MS = 2500;
var BAD_PRICE_PER_QUOTE = 15e-7;
var LATER_MIN_MS = 10 * 6e4;
var LATER_MAX_MS = 10 * 36e5;
var onFive = (ms) => Math.round(ms / 3e5) * 3e5;
var PROPS_POSTED_MS = 3 * 36e5;
var MarketSimulator = class {
  random;
  /** Player props draw from their own generator, so the game lines do not depend on them. */
  props;
  propsPostedMs;
  stepMs;
  eventCount;
  events = [];
  nowMs;
  nextFixture = 1;
  /** When the last run-time fixture kicking off within minutes was listed. */
  lastSoonListedAt = -Infinity;
  constructor(options) {
    this.random = seededRandom(options.seed);
    this.props = options.props === false ? null : new PropSimulator(options.seed);
    this.propsPostedMs = options.propsPostedMs ?? PROPS_POSTED_MS;
    this.stepMs = options.stepMs ?? 250;
    this.eventCount = options.events ?? 110;
    this.nowMs = options.startMs;
  }
  get now() {
    return this.nowMs;
  }
  pick(items) {
    return items[Math.floor(this.random() * items.length)];
  }
  /** A league in season on the simulator's date (seasons.ts), drawn by LEAGUE_WEIGHTS. */
  pickLeague() {
    const open = LEAGUE_WEIGHTS.filter(([league]) => inSeason(league, this.nowMs));
    const total2 = open.reduce((sum2, [, weight]) => sum2 + weight, 0);
    let roll = this.random() * total2;
    for (const [league, weight] of open) {
      roll -= weight;
      if (roll < 0) return league;
    }
    return open[open.length - 1][0];
  }
  createEvent(initial) {
    const league = this.pickLeague();
    const model = MODELS[league];
    const busy = new Set(
      this.events.filter((e) => e.league === league).flatMap((e) => [e.home[0], e.away[0]])
    );
    const free = TEAMS[league].filter(([name]) => !busy.has(name));
    const pool = free.length >= 2 ? free : TEAMS[league];
    const home = this.pick(pool);
    let away = this.pick(pool);
    while (away[0] === home[0]) away = this.pick(pool);
    const duration = model.durationMinutes * 6e4;
    let startsAt;
    if (initial && this.random() < 0.35)
      startsAt = onFive(this.nowMs - Math.floor(this.random() * duration * 0.9));
    else if (initial) startsAt = onFive(this.nowMs + 12e4 + Math.floor(this.random() * 12 * 36e5));
    else startsAt = this.runTimeStart();
    const fixture = this.nextFixture++;
    const margin = (this.random() - 0.4) * model.marginScale * 2;
    const total2 = model.total * (0.9 + this.random() * 0.2);
    const event = {
      fixture,
      sourceEventId: `sim-${fixture}`,
      league,
      home,
      away,
      startsAt,
      endsAt: startsAt + duration,
      live: startsAt <= this.nowMs,
      margin,
      total: total2,
      markets: [],
      slug: slug(`${away[0]} ${home[0]}`),
      props: null
    };
    this.untangle(event);
    event.markets = plansFor(league).map((plan2, index) => this.createMarket(event, plan2, index));
    event.props = this.props && this.propsPosted(event, this.nowMs) ? this.props.create(event) : null;
    return event;
  }
  /** Whether the books have hung props on the fixture by `now`: from PROPS_POSTED_MS before its start, and in play. */
  propsPosted(event, now) {
    return event.startsAt - now <= this.propsPostedMs;
  }
  /** When a fixture listed now kicks off: within minutes (a whole minute) for a share of them, else hours ahead. */
  runTimeStart() {
    const roll = this.random();
    const lead = this.random();
    if (roll < SOON_SHARE || this.nowMs - this.lastSoonListedAt >= SOON_AT_LEAST_EVERY_MS) {
      this.lastSoonListedAt = this.nowMs;
      const [least, most] = SOON_LEAD_MINUTES;
      const minutes = least + Math.floor(lead * (most - least + 1));
      return (Math.ceil(this.nowMs / 6e4) + minutes) * 6e4;
    }
    return onFive(this.nowMs + LATER_MIN_MS + Math.floor(lead * (LATER_MAX_MS - LATER_MIN_MS)));
  }
  createMarket(event, plan2, index) {
    const line = mainLine(event, plan2);
    const ways = outcomesOf(plan2.type).length;
    const books = SPORTSBOOK_KEYS.map((book) => {
      const roll = this.random();
      const step = event.league === "nba" || event.league === "ncaab" || event.league === "nfl" ? 1 : 0.5;
      const lineOffset = line === null || event.league === "mlb" || event.league === "nhl" || roll < 0.8 ? 0 : roll < 0.9 ? step : -step;
      return {
        book,
        lineOffset,
        bias: Array.from({ length: ways }, () => gaussian(this.random) * 0.024),
        nextQuoteAt: this.nowMs,
        suspendedUntil: 0,
        suspendedSent: false,
        linksSent: false,
        error: null
      };
    });
    return { index, plan: plan2, line, books, closed: false };
  }
  quote(event, market, book) {
    const line = market.line === null ? null : market.line + book.lineOffset;
    const fair = fairProbabilities(event, MODELS[event.league], market.plan, line);
    const odds = bookOdds(fair, book.bias, PROFILES[book.book], event.live);
    if (book.error) {
      const { outcome, factor } = book.error;
      const decimal = americanToDecimal(odds[outcome]) * factor;
      odds[outcome] = bookAmerican(decimal, PROFILES[book.book].roundToFive);
    }
    const outcomes = outcomesOf(market.plan.type);
    const sendLinks = !book.linksSent;
    book.linksSent = true;
    return outcomes.map((outcome, index) => {
      const message = {
        kind: "price",
        sourceEventId: event.sourceEventId,
        book: book.book,
        market: market.plan.type,
        period: market.plan.period,
        point: line === null ? null : market.plan.type === "spread" && outcome === "away" ? -line : line,
        outcome,
        american: odds[index]
      };
      if (sendLinks) {
        message.links = simulatedLinks(book.book);
      }
      return message;
    });
  }
  eventMessage(event) {
    const message = {
      kind: "event",
      sourceEventId: event.sourceEventId,
      league: event.league,
      home: { name: event.home[0], abbreviation: event.home[1] },
      away: { name: event.away[0], abbreviation: event.away[1] },
      startsAt: event.startsAt,
      live: event.live
    };
    if (event.props) message.players = event.props.roster;
    return message;
  }
  /** Every fixture and every book's first quote. */
  initial() {
    const opening = this.events.length === 0;
    while (this.events.length < this.eventCount) this.events.push(this.createEvent(true));
    if (opening) this.spreadLiveEnds();
    const out = [];
    for (const event of this.events) {
      out.push(this.eventMessage(event));
      for (const market of event.markets) {
        if (this.periodOver(event, market, this.nowMs)) {
          market.closed = true;
          continue;
        }
        for (const book of market.books) {
          out.push(...this.quote(event, market, book));
          book.nextQuoteAt = this.nowMs + this.quoteGap(book, event);
        }
      }
      if (this.props && event.props) out.push(...this.props.initial(event, event.props, this.nowMs));
    }
    return out;
  }
  /**
   * The opening board's live games end one after another over the next INITIAL_ENDS_SPAN_MS (the k-th of n within
   * the k-th n-th of it), as on an evening's board, so ends (and the new fixtures they bring) come every few minutes
   * from the first. Each keeps its kick-off on the five minutes; its length is the sport's, give or take that rounding.
   */
  spreadLiveEnds() {
    const live = this.events.filter((event) => event.live);
    const first = 3e4;
    const slot = (INITIAL_ENDS_SPAN_MS - first) / Math.max(live.length, 1);
    live.forEach((event, k) => {
      const endsAt = this.nowMs + first + Math.floor((k + this.random()) * slot);
      event.startsAt = onFive(endsAt - MODELS[event.league].durationMinutes * 6e4);
      event.endsAt = endsAt;
    });
    for (const event of live) this.untangle(event);
  }
  /**
   * Two fixtures of the same home and away teams starting within the engine's merge tolerance are one event to the
   * engine (two sources of one game), which would put two fair models behind its prices: such a fixture is hung the
   * other way round, or given another pair of teams (only then are more numbers drawn, so a board without a clash is
   * the same as before).
   */
  untangle(event) {
    const clashes = (home, away) => this.events.some(
      (other) => other !== event && other.league === event.league && other.home[0] === home && other.away[0] === away && Math.abs(other.startsAt - event.startsAt) <= DEFAULT_MERGE_TOLERANCE_MS
    );
    if (!clashes(event.home[0], event.away[0])) return;
    if (!clashes(event.away[0], event.home[0])) [event.home, event.away] = [event.away, event.home];
    else
      while (clashes(event.home[0], event.away[0]) || event.home[0] === event.away[0]) {
        event.home = this.pick(TEAMS[event.league]);
        event.away = this.pick(TEAMS[event.league]);
      }
    event.slug = slug(`${event.away[0]} ${event.home[0]}`);
    if (event.props) event.props = this.props.create(event);
  }
  /** Whether the market is a period market whose period is over at `now` (by the game clock model, PERIOD_ENDS). */
  periodOver(event, market, now) {
    return market.plan.period !== "full" && now >= periodEndsAt(event, market.plan.period);
  }
  /** The period is over: every book suspends the market (at its last price), and none quotes it again. */
  closePeriod(event, market, out) {
    market.closed = true;
    for (const book of market.books)
      for (const message of this.quote(event, market, book)) out.push({ ...message, suspended: true });
  }
  quoteGap(book, event) {
    const mean = PROFILES[book.book].lagSeconds * 1e3 * (event.live ? 0.35 : 1);
    return Math.min(-Math.log(1 - this.random()) * mean, event.live ? 6e3 : 4e4);
  }
  /** Advances the clock one step and returns what the books sent during it. */
  step() {
    this.nowMs += this.stepMs;
    const now = this.nowMs;
    const out = [];
    const seconds = this.stepMs / 1e3;
    for (let index = 0; index < this.events.length; index += 1) {
      let event = this.events[index];
      if (now >= event.endsAt) {
        out.push({ kind: "end", sourceEventId: event.sourceEventId });
        event = this.createEvent(false);
        this.events[index] = event;
        out.push(this.eventMessage(event));
        for (const market of event.markets)
          for (const book of market.books) book.nextQuoteAt = now + this.random() * 2e3;
        if (this.props && event.props) this.props.schedule(event.props, now, 2e3);
        continue;
      }
      const model = MODELS[event.league];
      if (this.props && !event.props && this.propsPosted(event, now)) {
        event.props = this.props.create(event);
        out.push(this.eventMessage(event));
        this.props.schedule(event.props, now, 2e3);
      }
      if (!event.live && now >= event.startsAt) {
        event.live = true;
        out.push(this.eventMessage(event));
        for (const market of event.markets)
          for (const book of market.books) book.nextQuoteAt = now + this.random() * 1500;
        if (this.props && event.props) out.push(...this.props.kickOff(event, event.props, now));
      }
      const drift = event.live ? 0.012 : 15e-4;
      event.margin += gaussian(this.random) * model.marginScale * drift * Math.sqrt(seconds);
      event.total += gaussian(this.random) * model.totalScale * drift * Math.sqrt(seconds);
      const scored = event.live && this.random() < model.scoresPerSecond * seconds;
      if (scored) {
        event.margin += (this.random() < 0.5 ? -1 : 1) * model.marginScale * (0.15 + this.random() * 0.25);
        event.total += model.totalScale * 0.1 * this.random();
        for (const market of event.markets) {
          if (market.closed) continue;
          for (const book of market.books) {
            if (this.random() < SCORE_SUSPEND_SHARE2) {
              book.suspendedUntil = now + 2e3 + this.random() * 7e3;
              book.suspendedSent = false;
            } else book.nextQuoteAt = Math.min(book.nextQuoteAt, now + SCORE_REQUOTE_MS * this.random());
          }
        }
      }
      for (const market of event.markets) {
        if (market.closed) continue;
        if (this.periodOver(event, market, now)) {
          this.closePeriod(event, market, out);
          continue;
        }
        for (const book of market.books) {
          for (let k = 0; k < book.bias.length; k += 1) {
            book.bias[k] = book.bias[k] * 0.998 + gaussian(this.random) * 15e-4;
          }
          if (!event.live && this.random() < 4e-5) {
            book.suspendedUntil = now + 5e3 + this.random() * 25e3;
            book.suspendedSent = false;
          }
          if (book.suspendedUntil > now) {
            if (!book.suspendedSent) {
              book.suspendedSent = true;
              for (const message of this.quote(event, market, book))
                out.push({ ...message, suspended: true });
            }
            continue;
          }
          if (now >= book.nextQuoteAt || book.suspendedSent) {
            book.suspendedSent = false;
            book.error = this.random() < BAD_PRICE_PER_QUOTE ? {
              outcome: Math.floor(this.random() * market.books[0].bias.length),
              factor: 1.2 + this.random() * 0.2
            } : null;
            out.push(...this.quote(event, market, book));
            book.nextQuoteAt = now + this.quoteGap(book, event) * (book.error ? 0.5 : 1);
          }
        }
      }
      if (this.props && event.props) out.push(...this.props.step(event, event.props, now, scored));
    }
    return out;
  }
};

// bench/engine.bench.ts
var EVENTS = Number(process.env.BENCH_ENGINE_EVENTS ?? 2e3);
var TARGET_UPDATES = Number(process.env.BENCH_ENGINE_UPDATES ?? 1e6);
var PROPS = process.env.BENCH_ENGINE_PROPS === "true";
var STEP_MS = 250;
var MAX_ARBS = 300;
var T0 = Date.UTC(2026, 0, 1);
var MODES = process.env.BENCH_ENGINE_MODES ?? "both";
var VALUE_SETS = process.env.BENCH_ENGINE_VALUE_SETS ?? "both";
var YIELD = process.env.BENCH_ENGINE_YIELD !== "false";
console.log(
  `generating ${TARGET_UPDATES} updates over ${EVENTS} events \xD7 15 books${PROPS ? ", with player props" : ""}...`
);
var simulator = () => new MarketSimulator({
  seed: 2026,
  startMs: T0,
  events: EVENTS,
  stepMs: STEP_MS,
  props: PROPS,
  propsPostedMs: Infinity
});
function median2(values) {
  return [...values].sort((a, b) => a - b)[values.length >> 1];
}
function header() {
  return { date: (/* @__PURE__ */ new Date()).toISOString(), node: process.version, props: PROPS, events: EVENTS };
}
if (MODES === "share") {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc");
  const TICKS = Number(process.env.BENCH_ENGINE_SHARE_TICKS ?? 40);
  let now = T0;
  const engine = new OddsEngine({
    source: "replay",
    now: () => now,
    maxArbs: MAX_ARBS,
    scan: { maxAgePreMatchMs: 36e5, maxAgeLiveMs: 36e5 }
  });
  engine.markReady();
  const initial = simulator().initial();
  for (const message of initial) engine.ingest(message);
  engine.tick();
  const byMarket = /* @__PURE__ */ new Map();
  for (const message of initial) {
    if (message.kind !== "price" || message.suspended || typeof message.american !== "number") continue;
    const line = message.point == null ? "" : message.market === "spread" && message.outcome === "away" ? -message.point : message.point;
    const key = [
      message.sourceEventId,
      message.market,
      message.period ?? "full",
      line,
      message.stat ?? "",
      message.player?.name ?? ""
    ].join("|");
    if (!byMarket.has(key)) byMarket.set(key, message);
  }
  const quoted = [...byMarket.values()];
  let seed = 2026;
  const random = () => {
    seed = seed + 1831565813 | 0;
    let t = Math.imul(seed ^ seed >>> 15, 1 | seed);
    t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t;
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  };
  for (let i = quoted.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [quoted[i], quoted[j]] = [quoted[j], quoted[i]];
  }
  const moved = new Uint8Array(quoted.length);
  let cursor = 0;
  const marketCount = engine.store.marketCount;
  const tickCpuMs = (share) => {
    const count = Math.max(1, Math.round(marketCount * share));
    const batch = [];
    for (let k = 0; k < count; k += 1) {
      const index = cursor;
      cursor = (cursor + 1) % quoted.length;
      const base = quoted[index];
      const out = base.american > 0 ? 5 : -5;
      const away = moved[index] = moved[index] === 1 ? 0 : 1;
      batch.push({
        ...base,
        american: base.american + (away ? out : 0),
        updatedAt: now,
        links: void 0
      });
    }
    now += 1;
    const started = process.cpuUsage();
    for (const message of batch) engine.ingest(message);
    engine.tick();
    const spent = process.cpuUsage(started);
    return { ms: (spent.user + spent.system) / 1e3, count };
  };
  const phase = (share) => {
    const ms = [];
    let count = 0;
    for (let t = 0; t < TICKS; t += 1) {
      const tick = tickCpuMs(share);
      ms.push(tick.ms);
      count = tick.count;
    }
    ms.sort((a, b) => a - b);
    return {
      share,
      marketsChanged: count,
      medianMs: ms[ms.length >> 1],
      meanMs: ms.reduce((a, b) => a + b, 0) / ms.length
    };
  };
  gc();
  phase(0.25);
  phase(0.01);
  const phases = [];
  for (let round = 0; round < 3; round += 1) {
    phases.push(phase(0.01));
    phases.push(phase(0.25));
  }
  const one = phases.filter((p2) => p2.share === 0.01);
  const quarter = phases.filter((p2) => p2.share === 0.25);
  const results2 = {
    ...header(),
    markets: marketCount,
    ticksPerPhase: TICKS,
    loadAverage: Number(loadavg()[0].toFixed(1)),
    onePercent: {
      marketsChanged: one[0].marketsChanged,
      medianCpuMs: one.map((p2) => Number(p2.medianMs.toFixed(2)))
    },
    quarter: {
      marketsChanged: quarter[0].marketsChanged,
      medianCpuMs: quarter.map((p2) => Number(p2.medianMs.toFixed(2)))
    },
    ratio: Number((median2(one.map((p2) => p2.medianMs)) / median2(quarter.map((p2) => p2.medianMs))).toFixed(3))
  };
  console.log(results2);
  console.log(`a 1 % tick costs ${results2.ratio} of a 25 % tick`);
  mkdirSync("bench/results", { recursive: true });
  writeFileSync(
    `bench/results/engine-share${PROPS ? "-props" : ""}.json`,
    `${JSON.stringify(results2, null, 2)}
`
  );
  process.exit(0);
}
var batchSizes = [];
var initialUpdates = 0;
var largestBatch = 0;
var total = 0;
{
  const sim = simulator();
  const initial = sim.initial();
  initialUpdates = initial.filter((m) => m.kind === "price").length;
  while (total < TARGET_UPDATES) {
    const batch = sim.step();
    const n2 = batch.filter((m) => m.kind === "price").length;
    total += n2;
    batchSizes.push(n2);
    largestBatch = Math.max(largestBatch, batch.length);
  }
}
var ticks = batchSizes.length;
console.log(`${total} price updates after the initial state, in ${ticks} ticks of ${STEP_MS} ms`);
function gcPauses(entries) {
  const kind = (entry) => entry.detail?.kind;
  const longest = (list) => Number(Math.max(0, ...list.map((entry) => entry.duration)).toFixed(2));
  const major = entries.filter((entry) => kind(entry) === perfConstants.NODE_PERFORMANCE_GC_MAJOR);
  const minor = entries.filter((entry) => kind(entry) === perfConstants.NODE_PERFORMANCE_GC_MINOR);
  return {
    longestPauseMs: longest(entries),
    longestMajorMs: longest(major),
    longestMinorMs: longest(minor),
    majors: major.length,
    minors: minor.length,
    totalPauseMs: Math.round(entries.reduce((sum2, entry) => sum2 + entry.duration, 0))
  };
}
function percentile(sorted, p2) {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p2))];
}
function fullRescanTicker(store, now) {
  const results2 = /* @__PURE__ */ new Map();
  const writer = new ArbsJson();
  let json = null;
  let scans = 0;
  let published = 0;
  let arbs = 0;
  return {
    tick() {
      const at = now();
      scans += store.marketCount;
      if (!rescanAll(store, at, DEFAULT_SCAN_OPTIONS, results2) && json !== null) return;
      const ranked = rankArbs(results2.values(), MAX_ARBS);
      const next = writer.write(ranked);
      if (next === json) return;
      json = next;
      feedBody(at, "replay", next);
      published += 1;
      arbs = ranked.length;
    },
    stats: () => ({ scans, published, arbs })
  };
}
setFlagsFromString("--expose-gc");
var collect = runInNewContext("gc");
async function run(mode, values = false) {
  collect();
  const heapBefore = process.memoryUsage().heapUsed;
  let now = T0;
  const engine = new OddsEngine({
    source: "replay",
    now: () => now,
    maxArbs: MAX_ARBS,
    values: {
      ev: values && VALUE_SETS !== "middles",
      middles: values && VALUE_SETS !== "ev"
    }
  });
  let valueChanges = 0;
  engine.onValues((changes) => {
    valueChanges += changes.ev.length + changes.evRemoved.length + changes.middles.length + changes.middlesRemoved.length;
  });
  engine.markReady();
  const full = mode === "full rescan" ? fullRescanTicker(engine.store, () => now) : null;
  const tick = full ? full.tick : () => engine.tick();
  const sim = simulator();
  const latencies = new Float64Array(total);
  let samples = 0;
  const stamps = new Float64Array(largestBatch);
  const loadStarted = performance.now();
  for (const message of sim.initial()) engine.ingest(message);
  tick();
  const initialLoadMs = performance.now() - loadStarted;
  collect();
  now += STEP_MS;
  let updates = 0;
  let generationMs = 0;
  let generationCpuUs = 0;
  const gcEntries = [];
  const gcObserver = new PerformanceObserver((list) => gcEntries.push(...list.getEntries()));
  gcObserver.observe({ entryTypes: ["gc"] });
  const cpuStarted = process.cpuUsage();
  const started = performance.now();
  for (let index = 0; index < ticks; index += 1) {
    const generationStarted = performance.now();
    const generationCpu = process.cpuUsage();
    const batch = sim.step();
    const spent = process.cpuUsage(generationCpu);
    generationCpuUs += spent.user + spent.system;
    generationMs += performance.now() - generationStarted;
    globalThis.__win.push(process.hrtime.bigint());
    let n2 = 0;
    let stamp2 = 0;
    for (const message of batch) {
      if (message.kind === "price") {
        if ((n2 & 15) === 0) stamp2 = performance.now();
        stamps[n2++] = stamp2;
      }
      engine.ingest(message);
    }
    if (n2 !== batchSizes[index])
      throw new Error(`replay diverged at batch ${index}: ${n2} \u2260 ${batchSizes[index]}`);
    globalThis.__win.push(process.hrtime.bigint());
    updates += n2;
    tick();
    globalThis.__win.push(process.hrtime.bigint());
    const done = performance.now();
    for (let k = 0; k < n2; k += 1) latencies[samples++] = done - stamps[k];
    now += STEP_MS;
    if (YIELD) await new Promise((resolve) => setImmediate(resolve));
  }
  const ended = performance.now();
  const seconds = (ended - started - generationMs) / 1e3;
  const cpu = process.cpuUsage(cpuStarted);
  for (let turn = 0; turn < 3; turn += 1) await new Promise((resolve) => setTimeout(resolve, 1));
  gcEntries.push(...gcObserver.takeRecords());
  gcObserver.disconnect();
  const gc = gcPauses(gcEntries.filter((entry) => entry.startTime >= started && entry.startTime < ended));
  const cpuSeconds = (cpu.user + cpu.system - generationCpuUs) / 1e6;
  const sorted = latencies.subarray(0, samples).sort();
  collect();
  const liveHeapMb = Number(((process.memoryUsage().heapUsed - heapBefore) / 1e6).toFixed(1));
  const stats = engine.stats();
  const scanned = full ? full.stats() : { scans: stats.scans, published: stats.published, arbs: stats.arbs };
  return {
    initialLoad: {
      updates: initialUpdates,
      ms: Math.round(initialLoadMs)
    },
    updates,
    seconds: Number(seconds.toFixed(2)),
    updatesPerSecond: Math.round(updates / seconds),
    // Process CPU time (main thread + GC helpers): less sensitive than wall time to other load on the machine.
    cpuSeconds: Number(cpuSeconds.toFixed(2)),
    updatesPerCpuSecond: Math.round(updates / cpuSeconds),
    loadAverage: Number(loadavg()[0].toFixed(1)),
    latencyMs: {
      p50: Number(percentile(sorted, 0.5).toFixed(2)),
      p99: Number(percentile(sorted, 0.99).toFixed(2))
    },
    scans: scanned.scans,
    published: scanned.published,
    arbsInLastSnapshot: scanned.arbs,
    liveHeapMb,
    gc,
    markets: stats.markets,
    dropped: stats.dropped,
    ...values ? { evPrices: engine.values.ev.size, middles: engine.values.middles.size, valueChanges } : {}
  };
}
if (MODES === "values") {
  const RUNS = Number(process.env.BENCH_ENGINE_VALUES_RUNS ?? 3);
  await run("incremental", true);
  const off = [];
  const on = [];
  for (let index = 0; index < RUNS; index += 1) {
    off.push(await run("incremental", false));
    console.log("values off", off.at(-1));
    on.push(await run("incremental", true));
    console.log("values on", on.at(-1));
  }
  const figures = (runs) => ({
    updatesPerSecond: runs.map((r) => r.updatesPerSecond),
    updatesPerCpuSecond: runs.map((r) => r.updatesPerCpuSecond),
    p99Ms: runs.map((r) => r.latencyMs.p99),
    loadAverage: runs.map((r) => r.loadAverage)
  });
  const results2 = {
    ...header(),
    updates: total,
    off: figures(off),
    on: {
      ...figures(on),
      evPrices: on.at(-1).evPrices,
      middles: on.at(-1).middles,
      valueChanges: on.at(-1).valueChanges
    },
    ratio: Number(
      (median2(on.map((r) => r.updatesPerSecond)) / median2(off.map((r) => r.updatesPerSecond))).toFixed(3)
    ),
    ratioCpu: Number(
      (median2(on.map((r) => r.updatesPerCpuSecond)) / median2(off.map((r) => r.updatesPerCpuSecond))).toFixed(
        3
      )
    )
  };
  console.log(`values on/off: ${results2.ratio} (wall), ${results2.ratioCpu} (CPU)`);
  mkdirSync("bench/results", { recursive: true });
  writeFileSync(
    `bench/results/engine-values${PROPS ? "-props" : ""}.json`,
    `${JSON.stringify(results2, null, 2)}
`
  );
  process.exit(0);
}
await run(MODES === "full" ? "full rescan" : "incremental");
var incremental = MODES === "full" ? null : await run("incremental");
if (incremental) console.log("incremental", incremental);
var rescan = MODES === "incremental" ? null : await run("full rescan");
if (rescan) console.log("full rescan", rescan);
if (!incremental || !rescan) process.exit(0);
var results = {
  ...header(),
  books: 15,
  // The initial load's tick included, as before.
  ticks: ticks + 1,
  incremental,
  fullRescan: rescan,
  speedup: Number((incremental.updatesPerSecond / rescan.updatesPerSecond).toFixed(2)),
  speedupCpu: Number((incremental.updatesPerCpuSecond / rescan.updatesPerCpuSecond).toFixed(2))
};
console.log(
  `incremental ${incremental.updatesPerSecond} updates/s, p99 ${incremental.latencyMs.p99} ms; full rescan ${rescan.updatesPerSecond} updates/s; ratio ${results.speedup}\xD7`
);
mkdirSync("bench/results", { recursive: true });
writeFileSync(`bench/results/engine${PROPS ? "-props" : ""}.json`, `${JSON.stringify(results, null, 2)}
`);
