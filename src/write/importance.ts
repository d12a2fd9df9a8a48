/**
 * Importance from content at ingest (seed 002's poignancy term, deterministic): the event type gives a base and
 * what the text says moves it.
 *
 *   base       correction 0.9 · outcome 0.8 · error 0.75 · decision / feedback 0.7 · state_change 0.5 ·
 *              tool call / result / message / note 0.4 · observation 0.3
 *   + danger   fire, emergency, hospital, accident, injured, died, breach, outage, data loss, fraud …   +0.35
 *   + urgency  urgent, asap, immediately, right now, deadline, critical, blocker, "by Friday" …        +0.2
 *   + stakes   money amounts, production, customers, lawsuit, contract, security, exam, interview …    +0.15
 *   + commit   first-person commitments and durable personal facts: "I will", "I promise", "remind me",
 *              "I decided", "I prefer", "I'm allergic", "my manager is", "I moved to" …               +0.15
 *   + emotion  love, hate, afraid, furious, devastated, thrilled, worried, cried …                      +0.1
 *   + emphasis an exclamation mark or a word in capitals (≥ 3 letters, not a code-like token)          +0.05
 *   − mundane  short routine chatter: "ate toast", "ok", "thanks", "lol", small talk about breakfast    −0.15
 *
 * Signals add (each counted once), clamped to 0.05..1 and rounded to 0.01: "The house is on fire!" (observation)
 * 0.3 + 0.35 + 0.05 = 0.7; "Ate toast" 0.3 − 0.15 = 0.15. An LLM rating replaces it when configured
 * (`learn.importance.method: llm`, learn/llm-judgements.ts), and a caller's explicit `importance` always wins.
 */
import type { EventType } from '../core/types.js';

const TYPE_IMPORTANCE: Record<EventType, number> = {
  correction: 0.9,
  outcome: 0.8,
  error: 0.75,
  decision: 0.7,
  feedback: 0.7,
  state_change: 0.5,
  tool_call: 0.4,
  tool_result: 0.4,
  message: 0.4,
  note: 0.4,
  observation: 0.3,
};

const re = (words: string) => new RegExp(`\\b(?:${words})\\b`, 'i');

const SIGNALS: { name: string; weight: number; test: RegExp }[] = [
  {
    name: 'danger',
    weight: 0.35,
    test: re(
      "on fire|fire|burning|emergency|911|ambulance|hospital(?:ised|ized)?|\\ber\\b|accident|crash(?:ed)?|injur(?:ed|y)|bleeding|died|dead|death|funeral|heart attack|stroke|overdose|flood(?:ed|ing)?|earthquake|evacuat\\w*|stolen|robbed|break-in|breach(?:ed)?|hacked|compromised|outage|data loss|lost (?:all|everything)|corrupt(?:ed|ion)|fraud|sev ?1|p0|incident|down for everyone",
    ),
  },
  {
    name: 'urgency',
    weight: 0.2,
    test: re('urgent(?:ly)?|asap|immediately|right now|right away|emergency|deadline|due (?:today|tomorrow|tonight)|by (?:today|tomorrow|tonight|monday|tuesday|wednesday|thursday|friday|eod|end of day)|critical|blocker|blocking|time[- ]sensitive|help!|hurry'),
  },
  {
    name: 'stakes',
    weight: 0.15,
    test: /(?:[$€£]\s?\d[\d,.]*\s?(?:k|m|bn|million|billion)?\b|\b\d[\d,.]*\s?(?:dollars|euros|pounds)\b|\b(?:production|prod|customers?|revenue|lawsuit|legal|contract|security|password|credentials|exam|interview|diagnos(?:is|ed)|surgery|pregnan(?:t|cy)|wedding|divorce|fired|laid off|promotion|mortgage|visa)\b)/i,
  },
  {
    name: 'commitment',
    weight: 0.15,
    test: re(
      "i will|i'll|i promise|i promised|i commit|i'm going to|i am going to|i need to|i have to|i must|remind me|don't let me forget|i decided|we decided|i've decided|i prefer|i'm allergic|i am allergic|i moved to|i live in|i work (?:at|for)|my (?:manager|boss|wife|husband|partner|doctor|email|phone|address|birthday) is|never (?:again|do)|always (?:use|do)",
    ),
  },
  {
    name: 'emotion',
    weight: 0.1,
    test: re('love|loved|hate|hated|afraid|scared|terrified|panic(?:king)?|furious|angry|upset|devastated|heartbroken|thrilled|ecstatic|excited|overjoyed|worried|anxious|stressed|depressed|grief|grieving|cried|crying|ashamed|proud|grateful|miss (?:her|him|them|you)'),
  },
];

const MUNDANE = re('ate|eating|breakfast|lunch|snack|toast|coffee|tea|brushed|shower(?:ed)?|nap|ok|okay|k|thanks|thank you|thx|lol|haha|cool|nice|sure|yep|yes|no|hi|hello|hey|bye|good (?:morning|night)|weather');
const CODE_LIKE = /[\d_./:-]/;

function emphasis(text: string): boolean {
  if (/!/.test(text)) return true;
  return (text.match(/\b[A-Z]{3,}\b/g) ?? []).some((w) => !CODE_LIKE.test(w) && !/^(?:API|URL|SQL|HTTP|HTTPS|JSON|CPU|GPU|RAM|AWS|GCP|CLI|SDK|UTC|PDF|CSV|ETL|DNS|TLS|SSL|SSH|VPN|FAQ|CEO|CTO|GET|POST|PUT|PATCH|DELETE|HEAD|NPM|LLM|MCP|JWT|YAML|HTML|CSS|XML|UUID|ASAP)$/.test(w));
}

export interface ImportanceSignals {
  importance: number;
  /** The signals that fired, for tests and explanations. */
  signals: string[];
}

/** Importance and the signals behind it. */
export function explainImportance(type: EventType, text: string): ImportanceSignals {
  const signals: string[] = [];
  let x = TYPE_IMPORTANCE[type];
  for (const s of SIGNALS) {
    if (s.test.test(text)) {
      x += s.weight;
      signals.push(s.name);
    }
  }
  if (emphasis(text)) {
    x += 0.05;
    signals.push('emphasis');
  }
  const words = text.trim().split(/\s+/).filter(Boolean).length;
  if (signals.length === 0 && words <= 8 && MUNDANE.test(text)) {
    x -= 0.15;
    signals.push('mundane');
  }
  return { importance: Math.round(Math.min(1, Math.max(0.05, x)) * 100) / 100, signals };
}

/** Deterministic importance (0..1) of an event from its type and content. */
export function contentImportance(type: EventType, text: string): number {
  return explainImportance(type, text).importance;
}
