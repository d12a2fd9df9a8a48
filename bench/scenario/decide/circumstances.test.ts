import { describe, expect, it } from 'vitest';
import { circumstanceFit, circumstancesOf } from './circumstances.js';
import { cueClasses, GENERAL_PRIOR, PRIORS, priorById } from './priors.js';

const classes = (text: string) => {
  const c = circumstancesOf(text);
  return { stated: [...c.stated].sort(), denied: [...c.denied].sort() };
};

describe('situation cues', () => {
  it('recognises each prior by its cues', () => {
    expect(cueClasses('Checkout broke right after the 4.2.0 rollout')).toEqual(['recent-change']);
    expect(cueClasses('Timeouts only at peak, when traffic doubles')).toEqual(['load']);
    expect(cueClasses('Memory grows slowly over days until restart')).toEqual(['gradual-growth']);
    expect(cueClasses('Fails every night around the backup window')).toEqual(['schedule']);
    expect(cueClasses('Clients see TLS handshake failures to the upstream')).toEqual(['dependency']);
    expect(cueClasses('The widget is blue')).toEqual([]);
  });

  it('does not read a load balancer or a verb form of a spike as load', () => {
    expect(cueClasses('the load balancer returns 502')).toEqual([]);
    expect(cueClasses('error counts spiking on the dashboard')).toEqual([]);
  });

  it('every prior has an id, a situation and advice; unknown ids fall back to the general prior', () => {
    for (const p of PRIORS) expect(p.id && p.situation && p.advice.length > 20).toBeTruthy();
    expect(priorById('nope')).toBe(GENERAL_PRIOR);
  });
});

describe('circumstancesOf', () => {
  it('reads stated circumstances per clause, keeping version dots inside a clause', () => {
    expect(classes('Writes fail after upgrading to v5.2.1. Started under heavy load.')).toEqual({ stated: ['load', 'recent-change'], denied: [] });
  });

  it('reads denials: "not during X", "no X", "without X" and "X unchanged/normal"', () => {
    expect(classes('Began at release time, not during a traffic burst.')).toEqual({ stated: ['recent-change'], denied: ['load'] });
    expect(classes('Errors climbing after the rollout, no change in traffic.')).toEqual({ stated: ['recent-change'], denied: ['load'] });
    expect(classes('Request volume is unchanged; it broke after the config push.')).toEqual({ stated: ['recent-change'], denied: ['load'] });
    expect(classes('Stalls without any peak in demand')).toEqual({ stated: [], denied: ['load'] });
  });

  it('an explicit denial wins over a mention of the same class elsewhere', () => {
    expect(classes('Peak traffic looked fine. The failure is not load related')).toEqual({ stated: [], denied: ['load'] });
  });
});

describe('circumstanceFit', () => {
  const report = circumstancesOf('Failing right after the deploy, traffic unchanged');

  it('is 1 when the precedent shares every stated circumstance and contradicts none', () => {
    const f = circumstanceFit(report, circumstancesOf('Broke after a deploy; rolled back'));
    expect(f).toEqual({ factor: 1, absent: [], conflicting: [], extra: [] });
  });

  it('penalises a contradiction most, an absent circumstance next, an extra one least', () => {
    const conflict = circumstanceFit(report, circumstancesOf('Slow during the traffic peak after the deploy'));
    const absent = circumstanceFit(report, circumstancesOf('Disk filled with logs'));
    const extra = circumstanceFit(circumstancesOf('Disk filled with logs'), circumstancesOf('Disk filled with logs every night'));
    expect(conflict.conflicting).toEqual(['load']);
    expect(absent.absent).toEqual(['recent-change']);
    expect(extra.extra).toEqual(['schedule']);
    expect(conflict.factor).toBeLessThan(absent.factor);
    expect(absent.factor).toBeLessThan(extra.factor);
    expect(extra.factor).toBeLessThan(1);
  });

  it('is symmetric about denials: a precedent that denied what the report states conflicts too', () => {
    const f = circumstanceFit(circumstancesOf('Slow under load'), circumstancesOf('Slow, but not load: a bad index'));
    expect(f.conflicting).toEqual(['load']);
  });
});
