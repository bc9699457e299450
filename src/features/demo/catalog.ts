// The fixed part of the demo division: five Scandinavian areas and their positions.
// Frequencies are channel names on the 8.33 kHz raster, written with three decimals as controllers say them.
import type { RatingCode } from '../members/domain/ratings.js';
import type { DemoPosition } from './types.js';

export const AREAS = ['Denmark', 'Finland', 'Iceland', 'Norway', 'Sweden'] as const;
export type AreaName = (typeof AREAS)[number];

const AREA_BY_PREFIX: Record<string, AreaName> = { EK: 'Denmark', EF: 'Finland', BI: 'Iceland', EN: 'Norway', ES: 'Sweden' };

/** The major airports: their towers and approaches need a facility endorsement. */
export const MAJOR_AIRPORTS: Record<string, AreaName> = { EKCH: 'Denmark', EFHK: 'Finland', ENGM: 'Norway', ESSA: 'Sweden' };

/** Facility endorsement names, one naming scheme for positions and endorsements alike. */
export const towerFacility = (icao: string): string => `T1 ${icao} TWR`;
export const approachFacility = (icao: string): string => `T2 ${icao} APP`;

const POSITIONS: ReadonlyArray<readonly [callsign: string, name: string, frequency: string]> = [
  // Denmark
  ['EKCH_DEL', 'Kastrup Delivery', '119.905'],
  ['EKCH_A_GND', 'Kastrup Apron', '121.630'],
  ['EKCH_D_GND', 'Kastrup Ground', '121.905'],
  ['EKCH_TWR', 'Kastrup Tower', '118.105'],
  ['EKCH_C_TWR', 'Kastrup Tower Crossing', '118.580'],
  ['EKCH_APP', 'Copenhagen Approach', '119.805'],
  ['EKCH_F_APP', 'Copenhagen Final', '119.380'],
  ['EKCH_DEP', 'Copenhagen Departure', '124.980'],
  ['EKDK_CTR', 'Copenhagen Control', '136.485'],
  ['EKDK_V_CTR', 'Copenhagen Control West', '128.105'],
  ['EKBI_TWR', 'Billund Tower', '119.005'],
  ['EKBI_APP', 'Billund Approach', '127.580'],
  ['EKAH_TWR', 'Aarhus Tower', '118.705'],
  ['EKYT_TWR', 'Aalborg Tower', '118.305'],
  ['EKRK_TWR', 'Roskilde Tower', '118.155'],
  // Finland
  ['EFHK_DEL', 'Helsinki Delivery', '121.960'],
  ['EFHK_GND', 'Helsinki Ground', '121.805'],
  ['EFHK_E_TWR', 'Helsinki Tower East', '118.610'],
  ['EFHK_W_TWR', 'Helsinki Tower West', '119.110'],
  ['EFHK_E_APP', 'Helsinki Radar East', '119.130'],
  ['EFHK_W_APP', 'Helsinki Radar West', '129.855'],
  ['EFIN_CTR', 'Helsinki Control', '132.330'],
  ['EFIN_D_CTR', 'Helsinki Control East', '133.105'],
  ['EFTP_TWR', 'Pirkkala Tower', '118.730'],
  ['EFRO_TWR', 'Rovaniemi Tower', '118.480'],
  ['EFOU_TWR', 'Oulu Tower', '118.165'],
  ['EFTU_TWR', 'Turku Tower', '118.455'],
  // Iceland
  ['BIKF_DEL', 'Keflavik Delivery', '121.855'],
  ['BIKF_GND', 'Keflavik Ground', '121.910'],
  ['BIKF_TWR', 'Keflavik Tower', '118.990'],
  ['BIKF_APP', 'Keflavik Approach', '119.305'],
  ['BIRK_TWR', 'Reykjavik Tower', '118.005'],
  ['BIAR_TWR', 'Akureyri Tower', '118.205'],
  ['BIRD_CTR', 'Reykjavik Control', '126.755'],
  ['BIRD_E_CTR', 'Reykjavik Control East', '119.705'],
  // Norway
  ['ENGM_DEL', 'Gardermoen Delivery', '121.680'],
  ['ENGM_GND', 'Gardermoen Ground', '121.605'],
  ['ENGM_TWR', 'Gardermoen Tower', '118.315'],
  ['ENGM_E_TWR', 'Gardermoen Tower East', '120.105'],
  ['ENGM_APP', 'Oslo Approach', '119.665'],
  ['ENGM_F_APP', 'Oslo Director', '134.055'],
  ['ENOS_CTR', 'Oslo Control', '120.455'],
  ['ENSV_CTR', 'Stavanger Control', '132.255'],
  ['ENBD_CTR', 'Bodø Control', '125.355'],
  ['ENOB_CTR', 'Bodø Oceanic', '126.730'],
  ['ENBR_TWR', 'Flesland Tower', '119.105'],
  ['ENBR_APP', 'Bergen Approach', '121.055'],
  ['ENVA_TWR', 'Værnes Tower', '118.655'],
  ['ENZV_TWR', 'Sola Tower', '118.355'],
  ['ENTC_TWR', 'Tromsø Tower', '118.280'],
  // Sweden
  ['ESSA_DEL', 'Arlanda Delivery', '121.705'],
  ['ESSA_GND', 'Arlanda Ground', '121.830'],
  ['ESSA_W_GND', 'Arlanda Ground West', '121.955'],
  ['ESSA_TWR', 'Arlanda Tower', '118.505'],
  ['ESSA_W_TWR', 'Arlanda Tower West', '125.130'],
  ['ESSA_APP', 'Stockholm Approach', '119.405'],
  ['ESSA_F_APP', 'Stockholm Final', '124.105'],
  ['ESOS_CTR', 'Stockholm Control', '126.655'],
  ['ESMM_CTR', 'Malmö Control', '124.055'],
  ['ESGG_TWR', 'Landvetter Tower', '118.605'],
  ['ESGG_APP', 'Göteborg Approach', '124.805'],
  ['ESMS_TWR', 'Sturup Tower', '118.805'],
  ['ESSB_TWR', 'Bromma Tower', '118.055'],
  ['ESPA_TWR', 'Luleå Tower', '118.330'],
];

const RATING_BY_FACILITY: Record<string, RatingCode> = { DEL: 'S1', GND: 'S1', TWR: 'S2', APP: 'S3', DEP: 'S3', CTR: 'C1' };

function describe(callsign: string, name: string, frequency: string): DemoPosition {
  const icao = callsign.slice(0, 4);
  const kind = callsign.slice(callsign.lastIndexOf('_') + 1);
  const rating = RATING_BY_FACILITY[kind];
  const area = AREA_BY_PREFIX[callsign.slice(0, 2)];
  if (!rating || !area) throw new Error(`demo catalogue: cannot classify ${callsign}`);
  let required_facility: string | null = null;
  if (icao in MAJOR_AIRPORTS) {
    if (kind === 'TWR') required_facility = towerFacility(icao);
    else if (kind === 'APP' || kind === 'DEP') required_facility = approachFacility(icao);
  }
  return { callsign, name, frequency, area, rating, required_facility };
}

export const DEMO_POSITIONS: readonly DemoPosition[] = POSITIONS.map(([c, n, f]) => describe(c, n, f));
