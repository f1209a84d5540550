import type { LeagueKey } from '#domain/markets.ts';

// Team names and abbreviations by league: the simulator draws fixtures from these, and The Odds API mapping looks
// abbreviations up here (it sends full names only).

const table = (rows: string): readonly (readonly [string, string])[] =>
  rows
    .trim()
    .split('\n')
    .map((row) => {
      const [abbreviation, name] = row.trim().split('|') as [string, string];
      return [name, abbreviation] as const;
    });

export const TEAMS: Readonly<Record<LeagueKey, readonly (readonly [name: string, abbreviation: string])[]>> =
  {
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
    SEA|Seattle Sounders FC`),
  };

const byName = new Map<string, string>();
for (const rows of Object.values(TEAMS))
  for (const [name, abbreviation] of rows) byName.set(name.toLowerCase(), abbreviation);

/** The abbreviation of a known team name (any league), or undefined. */
export function abbreviationFor(name: string): string | undefined {
  return byName.get(name.trim().toLowerCase());
}
