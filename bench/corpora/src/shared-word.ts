/**
 * Shared word: a tuning-only corpus (every question `split: "tune"`, ids `tq…`) of short user turns among long
 * answers, written to hold the lexical standout's per-memory length relief to a shape no tune half had shown: many
 * short user turns share one topical word with a question ("piano", "flight") and ask something else about it, one
 * user turn states the asked fact (usually without that word, in the user's own words), and the assistant's long
 * answers repeat the topical word. The lexical head is then long answers and short turns that merely name the topic;
 * the evidence is found by meaning. Beside them, for each question, two short turns on other subjects ask in the
 * question's form and share one word of it ("rent", "training", "rate", or the topical word in another sense): near
 * enough in meaning by their form, they stand out of a weak lexical pool by that word. Four questions of sixteen also name a rare word of the evidence, the shape of
 * long-turns, so the relief's gain stays measured beside its cost.
 *
 * Kinds: `paraphrase` (the evidence shares no topical word with the question) and `rare` (it shares a rare name).
 */
import { answer, REQUESTS, type Topic } from './long-chats.js';
import { pick, rng, sample, type Corpus, type CorpusDoc, type CorpusQuestion } from './format.js';

export type SharedWordKind = 'paraphrase' | 'rare';

interface Item {
  /** The topical word the question shares with the other short turns. */
  word: string;
  topic: Topic;
  q: string;
  kind: SharedWordKind;
  /** The user's turn that states the fact, and the first sentence of the answer to it (repeating the topical word). */
  fact: string;
  echo: string;
  /** Short user turns that name the topical word and ask something else. */
  others: string[];
  /** Short user turns on other subjects, in the question's form, that share one word with it. */
  strays: { topic: Topic; text: string }[];
}

const ITEMS: Item[] = [
  {
    word: 'piano', topic: 'music', kind: 'paraphrase', q: 'Which piano did we buy?',
    fact: 'We finally went for the Yamaha U1 upright from the second-hand dealer in Boavista, it gets delivered on Friday.',
    echo: 'A Yamaha U1 is a lovely piano to have at home, and a second-hand upright from a dealer usually comes regulated.',
    strays: [{ topic: 'home', text: 'Which blender should we buy for smoothies?' }, { topic: 'music', text: 'Which piano bar in Porto has live jazz on Sundays?' }],
    others: ['Is it worth getting my piano tuned twice a year?', 'How do I keep my kids interested in piano practice?', 'What should I look for in a piano teacher?', 'Can I still learn piano as an adult in my forties?', 'How loud is a piano for the neighbours in a flat?'],
  },
  {
    word: 'bike', topic: 'cycling', kind: 'paraphrase', q: 'What happened to my bike?',
    fact: 'My Trek gravel frame got stolen from outside the gym on Tuesday evening, the lock was cut clean through.',
    echo: 'Losing a bike like the Trek to a cut lock is miserable, and reporting it quickly makes a difference.',
    strays: [{ topic: 'cooking', text: 'What happened to my sourdough starter, it smells of nail polish?' }, { topic: 'finance', text: 'What happened to my tax refund, it is three months late?' }],
    others: ['How often should I service my bike?', 'What size bike do I need if I am 1.80 m tall?', 'Is it bad to leave a bike outside in the rain?', 'How do I carry the weekly shopping on a bike?', 'Should I insure my bike separately from the house?'],
  },
  {
    word: 'dog', topic: 'pets', kind: 'paraphrase', q: 'What is our new dog called?',
    fact: 'We adopted a three-year-old greyhound called Biscuit from the shelter in Matosinhos last weekend.',
    echo: 'A retired greyhound like Biscuit often makes a calm, gentle dog once the first weeks are over.',
    strays: [{ topic: 'finance', text: 'What is it called when you pay tax twice on dividends?' }, { topic: 'home', text: 'What is the new bin collection day in Bonfim?' }],
    others: ['How long should I walk a dog every day?', 'Can a dog eat grapes or raisins safely?', 'How do I stop my dog pulling on the lead?', 'What is a good age to neuter a dog?', "How do I clip a dog's nails at home without hurting him?"],
  },
  {
    word: 'car', topic: 'finance', kind: 'paraphrase', q: 'Which car did we get?',
    fact: 'We traded the old Clio in and signed for a used Toyota Corolla hybrid, 16,500 euros spread over four years.',
    echo: 'A used Corolla hybrid is a sensible car to finance, and four years keeps the total interest down.',
    strays: [{ topic: 'home', text: 'Which kettle did we get for the office in the end?' }, { topic: 'travel', text: 'Which car park near the airport is cheapest for a week?' }],
    others: ['Is it cheaper to lease a car or to buy one outright?', 'How much should I budget each year for car maintenance?', 'Do I need winter tyres on my car in the north of Portugal?', 'How do I sell a car privately without getting scammed?', 'What does the excess on car insurance actually mean?'],
  },
  {
    word: 'flat', topic: 'home', kind: 'paraphrase', q: 'How much is the rent on our new flat?',
    fact: 'We signed the lease on a two-bedroom place in Bonfim, 950 a month, and we move in on the first of June.',
    echo: 'A two-bedroom flat in Bonfim at 950 a month is a fair deal for the area, and June is a good time to move.',
    strays: [{ topic: 'travel', text: 'How much is the rent on a storage unit in Porto?' }, { topic: 'home', text: 'How much should a new flat screen TV cost?' }],
    others: ['How do I keep a flat cool in summer without air conditioning?', 'What plants survive in a dark flat?', 'How do I soundproof a flat cheaply?', 'Is contents insurance worth it for a rented flat?', 'How do I get rid of a damp smell in a flat?'],
  },
  {
    word: 'marathon', topic: 'fitness', kind: 'paraphrase', q: 'Which marathon am I training for?',
    fact: 'I entered the Lisbon race in October, the full 42 km this time, which will be my first one.',
    echo: 'Lisbon in October is a good first marathon, flat enough and usually not too hot.',
    strays: [{ topic: 'pets', text: 'Which muscles am I training with kettlebell swings?' }, { topic: 'home', text: 'Which TV marathon would you suggest for a rainy weekend?' }],
    others: ['How many weeks does it take to train for a marathon?', 'What should I eat the night before a marathon?', 'Is it bad to run a marathon in old shoes?', 'How long does it take to recover after a marathon?', 'Is it fine to walk parts of a marathon?'],
  },
  {
    word: 'job', topic: 'career', kind: 'paraphrase', q: 'Where is my new job?',
    fact: 'I accepted the offer from Feedzai yesterday, I start there as a data engineer at the beginning of March.',
    echo: 'Congratulations on the job at Feedzai, starting as a data engineer in March gives you time to wrap things up.',
    strays: [{ topic: 'home', text: 'Where is the new tax office in Porto?' }, { topic: 'home', text: 'Where can I find someone for a small plastering job?' }],
    others: ['How do I explain a gap on my CV when applying for a job?', 'How long should I stay in my first job?', 'Is it rude to negotiate a job offer by email?', 'How do I quit a job on good terms?', 'What should I ask at the end of a job interview?'],
  },
  {
    word: 'garden', topic: 'garden', kind: 'paraphrase', q: 'What are we growing in the garden?',
    fact: 'The landlord finally agreed we can dig up the back lawn, so we put in tomatoes, beans and courgettes in raised beds.',
    echo: 'Tomatoes, beans and courgettes are a forgiving first mix for a garden, and raised beds make the lawn easy to lift.',
    strays: [{ topic: 'health', text: 'What are the kids growing out of fastest, shoes or clothes?' }, { topic: 'home', text: 'What are the rules for a barbecue in a shared garden?' }],
    others: ['How do I attract bees to a small garden?', 'What is the cheapest way to edge a garden?', 'Is it worth putting a shed in a small garden?', 'How do I water a garden while I am on holiday?', 'Which hedges grow fast for privacy in a garden?'],
  },
  {
    word: 'camera', topic: 'photo', kind: 'paraphrase', q: 'Which camera did I get?',
    fact: 'I ended up ordering the Fujifilm X-T30 with the 18-55 kit lens, second-hand for 700 euros.',
    echo: 'The X-T30 is a great camera to learn on, and the 18-55 is one of the better kit lenses around.',
    strays: [{ topic: 'home', text: 'Which vaccine should I get before travelling to Brazil?' }, { topic: 'home', text: 'Which doorbell camera works without a subscription?' }],
    others: ['How do I clean the sensor of a camera safely?', 'Is a phone better than a cheap camera these days?', 'What camera bag is good for hiking?', 'How do I stop my camera fogging up in the cold?', 'Should I buy separate insurance for my camera?'],
  },
  {
    word: 'doctor', topic: 'health', kind: 'paraphrase', q: 'What did the doctor say at my check-up?',
    fact: 'The GP at the Paranhos health centre said my blood pressure is a bit high and wants me to cut salt and come back in six weeks.',
    echo: 'It is good that the doctor caught the blood pressure early, and cutting salt for six weeks is a fair first step.',
    strays: [{ topic: 'cycling', text: 'What should I say at my yearly check-up with my manager?' }, { topic: 'cycling', text: 'What should a bike check-up include before a long tour?' }],
    others: ['How do I get a second opinion from another doctor?', 'What should I ask my doctor about sleeping pills?', 'Is it okay to email my doctor my test results?', "How do I prepare for a doctor's appointment?", 'When should I see a doctor about a cough?'],
  },
  {
    word: 'oven', topic: 'cooking', kind: 'paraphrase', q: 'What new oven do we have?',
    fact: 'The landlord replaced the broken cooker with a Bosch electric one that has a proper fan setting.',
    echo: 'A Bosch fan oven will change what you can cook, and most recipes just need the temperature lowered a little.',
    strays: [{ topic: 'garden', text: 'What new rules do we have for recycling glass?' }, { topic: 'cooking', text: 'What oven gloves are safest for a pizza stone?' }],
    others: ['How do I clean a really greasy oven?', 'Why does my oven cook unevenly?', 'Can I bake bread in a small oven?', 'What temperature is a moderate oven?', 'Is it safe to leave the oven on when I go out?'],
  },
  {
    word: 'flight', topic: 'travel', kind: 'paraphrase', q: 'When is our flight?',
    fact: 'We booked TAP to Boston on the 14th of July, out of Porto at 10:40, and back on the 2nd of August.',
    echo: 'A morning flight from Porto to Boston on TAP is a comfortable way to cross, and you land in the early afternoon.',
    strays: [{ topic: 'photo', text: 'What is the usual flight time of a small drone battery?' }, { topic: 'travel', text: 'When is the best time to see a flight of flamingos in the Algarve?' }],
    others: ['How early should I get to the airport for a flight?', 'What can I claim for a delayed flight?', 'How do I sleep on a long flight?', 'Is it cheaper to book a flight on a Tuesday?', 'What should I wear on a long-haul flight?'],
  },
  {
    word: 'guitar', topic: 'music', kind: 'rare', q: 'How much did the Martin guitar cost?',
    fact: 'I picked up a used Martin D-28 guitar from a collector in Braga for 1,900 euros, it sounds amazing.',
    echo: 'A Martin D-28 at 1,900 euros is a guitar that holds its value, and a collector usually looks after them.',
    strays: [{ topic: 'travel', text: 'How much did a passport renewal cost last year?' }, { topic: 'music', text: 'How much does a guitar amp repair usually cost?' }],
    others: ['How do I stop my guitar strings buzzing?', 'Should I learn guitar with a pick or with my fingers?', 'How often should I change guitar strings?', 'Is using a guitar capo cheating?', 'How do I store a guitar in a humid flat?'],
  },
  {
    word: 'boiler', topic: 'home', kind: 'rare', q: 'What did the engineer say about the Vaillant boiler?',
    fact: 'The engineer who looked at the Vaillant boiler said the pressure valve is faulty and quoted 240 euros for the part.',
    echo: 'A faulty pressure valve on a Vaillant boiler is a common repair, and 240 euros for the part is in the normal range.',
    strays: [{ topic: 'career', text: 'What did the engineer mean by a load-bearing wall?' }, { topic: 'career', text: 'Should a sound engineer be paid per hour or per gig?' }],
    others: ['How do I bleed a radiator when the boiler is on?', 'What boiler pressure is normal?', 'Should I turn the boiler off in summer?', 'How old is too old for a boiler?', 'Is a combi boiler better than one with a tank?'],
  },
  {
    word: 'cat', topic: 'pets', kind: 'rare', q: 'What did Mochi the cat have done at the vet?',
    fact: 'Our cat Mochi had two teeth removed at the Clínica Veterinária do Bonfim yesterday and is still groggy.',
    echo: 'Dental extractions are common for a cat of Mochi\'s age, and grogginess for a day is normal.',
    strays: [{ topic: 'career', text: 'What did the vet mean by a heart murmur in a rabbit?' }, { topic: 'travel', text: 'Which cat cafe in Lisbon is good for kids?' }],
    others: ['Why does my cat scratch the sofa?', 'How do I get a cat to drink more water?', 'Is it cruel to keep a cat indoors?', 'How do I travel with a cat on a train?', 'What human food is toxic to a cat?'],
  },
  {
    word: 'loan', topic: 'finance', kind: 'rare', q: 'What rate is the Caixa loan at?',
    fact: 'Caixa approved the personal loan for the kitchen, 12,000 over five years at 7.9 percent.',
    echo: 'A Caixa loan at 7.9 percent over five years is a typical personal loan rate, and it is worth checking the fees too.',
    strays: [{ topic: 'fitness', text: 'What heart rate is too high on an easy run?' }, { topic: 'travel', text: 'What rate do the Caixa cash machines charge abroad?' }],
    others: ['Should I pay off a loan early?', 'How does a loan affect my credit score?', 'Is it smart to take a loan for a holiday?', 'What is the difference between the APR of a loan and its interest rate?', 'Can I get a loan while I am on a probation period?'],
  },
];

/** Echoes of a short turn that names the topical word: the long answer repeats it. */
const ECHOES = [
  (w: string) => `That is a very common ${w} question, and the honest answer depends on your situation.`,
  (w: string) => `Plenty of people ask this about their ${w}, so you are in good company.`,
  (w: string) => `With a ${w} there are a few things worth settling first.`,
  (w: string) => `Good question, and the ${w} side of it is simpler than it looks.`,
];

const SESSION_TURNS = 3;

/** How many of an item's other short turns name its topical word (the rest ask a quick request of the topic). */
const NAMING_TURNS = 1;

export function sharedWordCorpus(): Corpus {
  const r = rng(22_06);
  type Turn = { text: string; topic: Topic; echo: string | undefined; key?: string };
  const turns: Turn[] = [];
  ITEMS.forEach((it, i) => {
    turns.push({ text: it.fact, topic: it.topic, echo: it.echo, key: `f${i}` });
    for (const stray of it.strays) turns.push({ text: stray.text, topic: stray.topic, echo: undefined });
    // One short turn names the topical word; the other answers of the topic bring the word up unasked.
    it.others.forEach((o, j) => turns.push({ text: j < NAMING_TURNS ? o : pick(r, REQUESTS[it.topic]), topic: it.topic, echo: pick(r, ECHOES)(it.word) }));
  });
  // Quick requests of every topic that name no topical word of a question, as people also ask other things.
  for (const topic of Object.keys(REQUESTS) as Topic[]) for (const text of sample(r, REQUESTS[topic], 2)) turns.push({ text, topic, echo: undefined });
  const order = sample(r, turns, turns.length);
  const docs: CorpusDoc[] = [];
  const factDoc = new Map<string, string>();
  let t = Date.UTC(2024, 1, 5, 19, 0);
  for (let s = 0; s * SESSION_TURNS < order.length; s++) {
    const session = `W${s + 1}`;
    let n = 0;
    for (const turn of order.slice(s * SESSION_TURNS, (s + 1) * SESSION_TURNS)) {
      const uid = `${session}:${++n}`;
      docs.push({ id: uid, type: 'message', name: 'user', session, ts: new Date(t).toISOString(), content: turn.text });
      if (turn.key) factDoc.set(turn.key, uid);
      t += (2 + Math.floor(r() * 4)) * 60_000;
      docs.push({ id: `${session}:${++n}`, type: 'message', name: 'assistant', session, ts: new Date(t).toISOString(), content: answer(r, turn.topic, turn.echo) });
      t += (3 + Math.floor(r() * 5)) * 60_000;
    }
    t += (2 + Math.floor(r() * 5)) * 86_400_000;
  }
  const questions: CorpusQuestion[] = ITEMS.map((it, i) => ({ id: `tq${i + 1}`, q: it.q, evidence: [factDoc.get(`f${i}`)!], split: 'tune' }));
  return { name: 'shared-word', shape: 'short user turns that share one topical word with a question, one stating the fact, among long answers that repeat the word; tuning questions only (tq)', docs, questions };
}

export function sharedWordKinds(): Map<string, SharedWordKind> {
  return new Map(ITEMS.map((it, i) => [`tq${i + 1}`, it.kind] as const));
}
