// Name pools for plausible controllers: people from the five areas, and visitors from elsewhere.
import type { AreaName } from './catalog.js';

export interface NamePool {
  first: readonly string[];
  last: readonly string[];
}

export const LOCAL_NAMES: Record<AreaName, NamePool> = {
  Denmark: {
    first: ['Anders', 'Anne', 'Asger', 'Camilla', 'Christian', 'Emil', 'Freja', 'Frederik', 'Ida', 'Jens', 'Kasper', 'Line', 'Mads', 'Mette', 'Mikkel', 'Nikolaj', 'Rasmus', 'Sofie', 'Søren', 'Thea'],
    last: ['Andersen', 'Christensen', 'Hansen', 'Jensen', 'Jørgensen', 'Kristensen', 'Larsen', 'Madsen', 'Møller', 'Nielsen', 'Pedersen', 'Petersen', 'Rasmussen', 'Sørensen', 'Thomsen'],
  },
  Finland: {
    first: ['Aino', 'Antti', 'Eero', 'Elina', 'Heikki', 'Juha', 'Kaisa', 'Lauri', 'Mikko', 'Niko', 'Pekka', 'Sanna', 'Tuomas', 'Veera', 'Ville'],
    last: ['Heikkinen', 'Hämäläinen', 'Järvinen', 'Korhonen', 'Koskinen', 'Laine', 'Lehtonen', 'Mäkelä', 'Mäkinen', 'Nieminen', 'Salminen', 'Virtanen'],
  },
  Iceland: {
    first: ['Anna', 'Birna', 'Einar', 'Guðrún', 'Gunnar', 'Helga', 'Jón', 'Kristín', 'Ólafur', 'Sigríður', 'Sigurður', 'Þóra'],
    last: ['Einarsson', 'Guðmundsdóttir', 'Guðmundsson', 'Gunnarsson', 'Jónsdóttir', 'Jónsson', 'Kristjánsson', 'Magnússon', 'Ólafsdóttir', 'Sigurðsson'],
  },
  Norway: {
    first: ['Andreas', 'Eirik', 'Emma', 'Håkon', 'Ingrid', 'Jonas', 'Kari', 'Kristian', 'Magnus', 'Marius', 'Nora', 'Ole', 'Sigrid', 'Silje', 'Thomas', 'Vegard'],
    last: ['Bakken', 'Berg', 'Dahl', 'Halvorsen', 'Hansen', 'Haugen', 'Johansen', 'Larsen', 'Lie', 'Nilsen', 'Olsen', 'Solberg', 'Strand', 'Aasen'],
  },
  Sweden: {
    first: ['Alexander', 'Anna', 'Astrid', 'Björn', 'Elin', 'Emil', 'Erik', 'Filip', 'Gustav', 'Hanna', 'Johan', 'Karin', 'Linnea', 'Maja', 'Niklas', 'Oskar', 'Sara', 'Viktor'],
    last: ['Andersson', 'Bergström', 'Eriksson', 'Gustafsson', 'Holm', 'Johansson', 'Karlsson', 'Larsson', 'Lindberg', 'Lindqvist', 'Nilsson', 'Olsson', 'Persson', 'Sandberg', 'Svensson', 'Åkesson'],
  },
};

export const INTERNATIONAL_NAMES: NamePool = {
  first: ['Ahmed', 'Alex', 'Ana', 'Chen', 'Daniel', 'David', 'Elena', 'João', 'Kenji', 'Laura', 'Lucas', 'Marco', 'Maria', 'Mateusz', 'Pierre', 'Priya', 'Sean', 'Sophie', 'Tomás', 'Yusuf'],
  last: ['Bianchi', 'Dubois', 'Fischer', 'García', 'Kowalski', 'Murphy', 'Müller', 'Novak', "O'Brien", 'Rossi', 'Schmidt', 'Silva', 'Smith', 'van Dijk', 'Weber'],
};

/** ASCII local part for an e-mail address: "Søren Møller" -> "soren.moller". */
export function emailLocalPart(first: string, last: string): string {
  const ascii = (s: string): string =>
    s
      .toLowerCase()
      .replace(/æ/g, 'ae')
      .replace(/ø/g, 'o')
      .replace(/þ/g, 'th')
      .replace(/ð/g, 'd')
      .normalize('NFD')
      .replace(/[^a-z0-9]/g, '');
  return `${ascii(first)}.${ascii(last)}`;
}
