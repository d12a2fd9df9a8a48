import { describe, expect, it } from 'vitest';
import { parseScenario } from './format.js';
import { lessonRank, teachingRounds } from './learnable.js';

const scenario = parseScenario({
  pool_patterns: ['quota'],
  rounds: [
    { round_num: 1, service: 'a', bug_report: 'uploads fail', actual_root_cause: 'Storage quota reached.', outcome: 'failure', correction: 'Was actually the storage quota, not the network.' },
    { round_num: 2, service: 'b', bug_report: 'login fails after the release', actual_root_cause: 'The release removed a setting.', outcome: 'success', correct_keywords: ['release'] },
    { round_num: 3, service: 'c', bug_report: 'exports fail', actual_root_cause: 'Export quota reached.', outcome: 'failure' },
    { round_num: 4, service: 'd', bug_report: 'sign-in fails after the rollout', actual_root_cause: 'A release dropped a flag.', outcome: 'failure', correct_keywords: ['release', 'rollout'], incorrect_keywords: ['quota'] },
    { round_num: 5, service: 'e', bug_report: 'x', actual_root_cause: 'Quota.', outcome: 'failure', taught_by: [1] },
  ],
});

describe('teachingRounds', () => {
  it('derives the rounds whose established cause answers a round by its own scoring rule', () => {
    expect(teachingRounds(scenario, scenario.rounds[0]!)).toEqual([]);
    expect(teachingRounds(scenario, scenario.rounds[2]!)).toEqual([1]);
    // Round 4 counts only the release round: the quota rounds name its incorrect keyword.
    expect(teachingRounds(scenario, scenario.rounds[3]!)).toEqual([2]);
    // An explicit list wins.
    expect(teachingRounds(scenario, scenario.rounds[4]!)).toEqual([1]);
  });

  it('rejects a taught_by that is not an earlier round', () => {
    expect(() => parseScenario({ pool_patterns: ['q'], rounds: [{ round_num: 1, service: 's', bug_report: 'r', actual_root_cause: 'c', outcome: 'failure', taught_by: [1] }] })).toThrow(
      /rounds\.0\.taught_by/,
    );
  });
});

describe('lessonRank', () => {
  const r3 = scenario.rounds[2]!;
  it('ranks the first item of a teaching round, or a learned fact naming the answer', () => {
    const items = [
      { kind: 'episode', fromRound: 2, text: 'release' },
      { kind: 'episode', fromRound: 1, text: 'Root cause: Storage quota reached.' },
    ];
    expect(lessonRank(scenario, r3, items, 'Root cause: Storage quota reached.')).toEqual({ taughtBy: [1], rank: 2, inText: true });
    const fact = [{ kind: 'fact', fromRound: null, text: 'When uploads fail, check the quota, not the network.' }];
    expect(lessonRank(scenario, r3, fact, 'check the quota')).toEqual({ taughtBy: [1], rank: 1, inText: false });
  });

  it('a chunk of a teaching round holds the lesson only when it names the answer; nothing retrieved ranks null', () => {
    expect(lessonRank(scenario, r3, [{ kind: 'chunk', fromRound: 1, text: 'uploads fail' }], '').rank).toBeNull();
    expect(lessonRank(scenario, r3, [{ kind: 'chunk', fromRound: 1, text: 'Outcome: failure. Root cause: Storage quota reached.' }], '').rank).toBe(1);
    expect(lessonRank(scenario, r3, [], '')).toEqual({ taughtBy: [1], rank: null, inText: false });
  });
});
