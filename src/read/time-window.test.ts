import { describe, expect, it } from 'vitest';
import { DAY_TIME_BOOST, MAX_DATE_SCAN_CHARS, namesDays, queryTimeWindow, timeFactor, TIME_BOOST } from './time-window.js';

const NOW = Date.UTC(2026, 10, 24, 10); // Tuesday 24 November 2026, 10:00 UTC
const DAY = 86_400_000;
const day = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d);

describe('queryTimeWindow', () => {
  it('reads a day, a month of a year and a year, each widened by a day', () => {
    expect(queryTimeWindow('What painting did Melanie show on October 13, 2023?', NOW)).toMatchObject({ start: day(2023, 10, 13) - DAY, end: day(2023, 10, 14) + DAY });
    expect(queryTimeWindow('What did Gina find for her store on 1 February, 2023?', NOW)).toMatchObject({ start: day(2023, 2, 1) - DAY, end: day(2023, 2, 2) + DAY });
    expect(queryTimeWindow('What setback did Melanie face in October 2023?', NOW)).toMatchObject({ start: day(2023, 10, 1) - DAY, end: day(2023, 11, 1) + DAY });
    expect(queryTimeWindow('where did we travel last year', NOW)).toMatchObject({ start: day(2025, 1, 1) - DAY, end: day(2026, 1, 1) + DAY });
  });

  it('reads days relative to now, and a week when the words say so', () => {
    expect(queryTimeWindow('what broke yesterday?', NOW)).toMatchObject({ start: day(2026, 11, 23) - DAY, end: day(2026, 11, 24) + DAY, text: 'yesterday' });
    expect(queryTimeWindow('what did we ship last Tuesday', NOW)).toMatchObject({ start: day(2026, 11, 17) - DAY, end: day(2026, 11, 18) + DAY });
    expect(queryTimeWindow('what did we decide last week', NOW)).toMatchObject({ start: day(2026, 11, 14) - DAY, end: day(2026, 11, 21) + DAY });
  });

  it('names no time for a month or day without its year, or for no date at all', () => {
    expect(queryTimeWindow('When did Melanie go camping in June?', NOW)).toBeUndefined();
    expect(queryTimeWindow('what happened on June 5', NOW)).toBeUndefined();
    expect(queryTimeWindow('How do Jon and Gina both like to destress?', NOW)).toBeUndefined();
    expect(queryTimeWindow('', NOW)).toBeUndefined();
  });

  it('reads the opening of a long query only (a pasted log does not cost a long parse)', () => {
    const log = ' stack frame line'.repeat(1_000);
    expect(queryTimeWindow(`what failed on 5 May, 2023?${log}`, NOW)).toMatchObject({ text: 'on 5 May, 2023' });
    expect(queryTimeWindow(`${'x'.repeat(MAX_DATE_SCAN_CHARS)} on 5 May, 2023`, NOW)).toBeUndefined();
  });
});

describe('timeFactor', () => {
  it('boosts inside the window only', () => {
    const w = queryTimeWindow('in July 2023', NOW)!;
    expect(timeFactor(day(2023, 7, 15), w)).toBe(1 + TIME_BOOST);
    expect(timeFactor(day(2023, 8, 15), w)).toBe(1);
    expect(timeFactor(day(2023, 7, 15), undefined)).toBe(1);
  });

  it('boosts a named day more than a week, a month or a year', () => {
    expect(DAY_TIME_BOOST).toBeGreaterThan(TIME_BOOST);
    const onDay = queryTimeWindow('What did Maria mention on 31 July, 2023?', NOW)!;
    expect(timeFactor(day(2023, 7, 31), onDay)).toBe(1 + DAY_TIME_BOOST);
    expect(timeFactor(day(2023, 7, 15), onDay)).toBe(1);
    const yesterday = queryTimeWindow('what broke yesterday?', NOW)!;
    expect(timeFactor(day(2026, 11, 23), yesterday)).toBe(1 + TIME_BOOST);
    const week = queryTimeWindow('what did we decide last week', NOW)!;
    expect(timeFactor(day(2026, 11, 17), week)).toBe(1 + TIME_BOOST);
    const year = queryTimeWindow('where did we travel last year', NOW)!;
    expect(timeFactor(day(2025, 6, 1), year)).toBe(1 + TIME_BOOST);
  });
});

describe('namesDays', () => {
  it('is true for a calendar date of a few days at most, false for relative days, a week, a month or a year', () => {
    expect(namesDays(queryTimeWindow('on October 13, 2023', NOW)!)).toBe(true);
    expect(namesDays(queryTimeWindow('as mentioned on 3 June, 2023', NOW)!)).toBe(true);
    expect(namesDays({ start: day(2023, 5, 3) - DAY, end: day(2023, 5, 6) + DAY, calendar: true })).toBe(true);
    expect(namesDays({ start: day(2023, 5, 3) - DAY, end: day(2023, 5, 7) + DAY, calendar: true })).toBe(false);
    expect(namesDays({ start: day(2023, 5, 3) - DAY, end: day(2023, 5, 4) + DAY })).toBe(false);
    expect(namesDays(queryTimeWindow('last Tuesday', NOW)!)).toBe(false);
    expect(namesDays(queryTimeWindow('what broke yesterday?', NOW)!)).toBe(false);
    expect(namesDays(queryTimeWindow("Which team owns the service behind Monday's checkout errors?", NOW)!)).toBe(false);
    expect(namesDays(queryTimeWindow('last week', NOW)!)).toBe(false);
    expect(namesDays(queryTimeWindow('Which CI service does the project use now?', NOW)!)).toBe(false);
    expect(namesDays(queryTimeWindow('in July 2023', NOW)!)).toBe(false);
    expect(namesDays(queryTimeWindow('last year', NOW)!)).toBe(false);
  });
});
