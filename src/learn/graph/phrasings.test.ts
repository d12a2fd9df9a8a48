import { describe, expect, it } from 'vitest';
import { extractFromTurn } from './rules.js';

const edges = (text: string, speaker?: string, previous: string[] = []) =>
  extractFromTurn({ text, speaker }, previous)
    .relations.map((r) => `${r.source} ${r.type} ${r.target}`)
    .sort();

describe('phrasing classes', () => {
  it('an appositive between subject and verb ("X, our billing service, depends on Y") leaves the subject its verb', () => {
    expect(edges('Orion, our billing service, depends on Postgres.')).toEqual(['Orion depends_on Postgres']);
    expect(edges('Marta, my old roommate, moved to Lisbon.')).toEqual(['Marta lives_in Lisbon']);
    expect(edges('Kestrel, the mapping library, uses GDAL for projections.')).toEqual(['Kestrel uses GDAL']);
  });

  it('an appositive role names a relative or a group ("Leo, the Tigers\' goalkeeper, is Nora\'s cousin")', () => {
    expect(edges("Leo, the Tigers' goalkeeper, is Nora's cousin.")).toEqual(['Leo member_of Tigers', 'Nora relative_of Leo']);
    expect(edges("Priya, Dana's niece, lives in Leeds.")).toEqual(['Dana relative_of Priya', 'Priya lives_in Leeds']);
    expect(edges("Omar is Gita's uncle.")).toEqual(['Gita relative_of Omar']);
    expect(edges('My aunt Rosa lives in Porto.', 'Tim')).toEqual(['Rosa lives_in Porto', 'Tim relative_of Rosa']);
    // A person's appositive role is not a group to be a member of.
    expect(edges("Ana, Bruno's assistant, moved to Quito.")).toEqual(['Ana lives_in Quito']);
  });

  it('a subject joined with the speaker ("Ana and I got married") relates both, and the pair to each other', () => {
    expect(edges('Ana and I got married in 2019.', 'Ben')).toEqual(['Ben married_to Ana']);
    expect(edges('Tom and I have been friends since school.', 'Lia')).toEqual(['Lia friend_of Tom']);
    expect(edges('Kim and I live in Denver.', 'Sol')).toEqual(['Kim lives_in Denver', 'Sol lives_in Denver']);
    expect(edges('Jade and Omar are engaged!')).toEqual(['Jade dating Omar']);
  });

  it('renting, buying or owning a home in a place is living there', () => {
    expect(edges('We rent a small flat in Leeds.', 'Ivy')).toEqual(['Ivy lives_in Leeds']);
    expect(edges('I bought a house in Galway last spring.', 'Finn')).toContain('Finn lives_in Galway');
    expect(edges('My girlfriend Noor and I share an apartment in Cairo.', 'Sami')).toEqual(['Noor lives_in Cairo', 'Sami dating Noor', 'Sami lives_in Cairo']);
  });

  it('"it" is the thing the sentence opened with, or the one thing named beside a person', () => {
    expect(edges('Falcon is our deploy tool; it runs on Kubernetes.')).toEqual(['Falcon runs_on Kubernetes']);
    expect(edges('Quill is the note app, and it uses SQLite.')).toEqual(['Quill uses SQLite']);
    expect(edges("I'm passing Orbit to Devi: she maintains it from June.", 'Ken')).toEqual(['Devi maintains Orbit']);
    // A person opening the sentence is not "it"; neither is anything when two things are named.
    expect(edges('Maria lives in Rome, and it uses a lot of water.')).toEqual(['Maria lives_in Rome']);
    expect(edges('Zed hands Orbit and Vega to Devi; she maintains it.', 'Ken')).toEqual([]);
  });

  it('a chat turn that drops its subject ("Moved to Austin in March.") is the speaker\'s', () => {
    expect(edges('Moved to Austin in March.', 'Kay')).toEqual(['Kay lives_in Austin']);
    expect(edges('Started working at Acme Corp last week!', 'Lou')).toEqual(['Lou works_at Acme Corp']);
    expect(edges('Bought a Subaru Outback yesterday.', 'Ray')).toEqual(['Ray owns Subaru Outback']);
    expect(edges('Moved the meeting to Friday.', 'Kay')).toEqual([]);
    expect(edges('Moved to Austin in March.')).toEqual([]);
    // Names that end like verbs are not dropped subjects.
    expect(edges('Fred moved to Boston.', 'Kay')).toEqual(['Fred lives_in Boston']);
    expect(edges('Sterling works at Acme Corp.', 'Kay')).toEqual(['Sterling works_at Acme Corp']);
  });

  it('an intended or starting move before the verb ("is moving over to lead", "plans to move to")', () => {
    expect(edges('Ines is moving over to lead the data platform group.')).toEqual(['Ines manages data platform group']);
    expect(edges('Raj is going to join Stripe in June.')).toEqual(['Raj works_at Stripe']);
    expect(edges('Mo plans to move to Oslo next year.')).toEqual(['Mo lives_in Oslo']);
    expect(edges('Eva has agreed to coach the Riverside Otters.')).toEqual(['Eva coaches Riverside Otters']);
  });

  it('"X is on Y" with a named platform is using it; not a team, a day or a lower-case state', () => {
    expect(edges('Globex is on Salesforce; Umbrella is on Zoho.')).toEqual(['Globex uses Salesforce', 'Umbrella uses Zoho']);
    expect(edges('Vanta is on Postgres now.')).toEqual(['Vanta uses Postgres']);
    expect(edges("Bob is on Alice's team.")).toEqual([]);
    expect(edges('Sara is on vacation.')).toEqual([]);
    expect(edges('The launch is on Friday.')).toEqual([]);
  });

  it('a list of objects with their purposes ("Sentry for errors and Grafana for dashboards")', () => {
    expect(edges('We use Sentry for errors and Grafana for dashboards.', 'Ola')).toEqual(['Ola uses Grafana', 'Ola uses Sentry']);
    expect(edges('Lena prefers Vim for code, and Typora for notes.')).toEqual(['Lena prefers Typora', 'Lena prefers Vim']);
  });

  it('a switch "from A to B" is using B; a move from one place to another is living in the second', () => {
    expect(edges('We moved our builds from Jenkins to Buildkite.', 'Ada')).toEqual(['Ada uses Buildkite']);
    expect(edges('The team switched from Jira to Linear last month.')).toEqual(['team uses Linear']);
    expect(edges('Ruth moved from Paris to Lyon.')).toEqual(['Ruth lives_in Lyon']);
  });

  it('a stake in a business is owning it; a business owned with its place is located there', () => {
    expect(edges('Ines owns a third of Café Lune.')).toEqual(['Ines owns Café Lune']);
    expect(edges('Pavel owns 30% of Northwind Labs.')).toEqual(['Pavel owns Northwind Labs']);
    expect(edges('Marco owns Trattoria Sole in Naples.')).toEqual(['Marco owns Trattoria Sole', 'Trattoria Sole located_in Naples']);
  });

  it('a role on a named project is working on it; "the expert on" a place is not', () => {
    expect(edges('Nia is the tech lead on Kestrel.')).toEqual(['Nia works_at Kestrel']);
    expect(edges("I'm the only designer on Bluebird right now.", 'Omar')).toEqual(['Omar works_at Bluebird']);
    expect(edges('Ruth is the expert on Lisbon.')).toEqual([]);
  });
});
