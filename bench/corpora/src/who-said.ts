/**
 * Who said it: a tuning-only corpus (every question `split: "tune"`, ids `tq…`) for the asker's author field in a
 * store of user–assistant chats. long-chats' memories are the haystack (user turns that state facts about the user,
 * long generic answers); then ten sessions in which the user states a situation of their own and the assistant answers
 * with something specific (a plan, a product, a recipe, an amount), then a follow-up request and a shorter answer on
 * the same subject. Each session is asked about twice, in other words than its turns:
 *
 * - `asker`: what the user said ("What did I tell you about …", "Which race did I sign up for?"); the evidence is the
 *   user's stating turn.
 * - `assistant`: what the assistant said, recommended, suggested or gave ("Which hotel did you suggest for my trip?",
 *   "What was your advice on …"); the evidence is the assistant's answer. Both kinds speak in the first person.
 *
 * Written, with its evidence, before any retrieval ran on it.
 */
import { rng, type Corpus, type CorpusDoc, type CorpusQuestion } from './format.js';
import { longChatsWithFacts } from './long-chats.js';

export type WhoSaidKind = 'asker' | 'assistant';

interface Session {
  /** The user's turn that states their situation (and asks), the assistant's specific answer to it. */
  user: string;
  reply: string;
  /** A follow-up request on the same subject and the assistant's shorter answer to it. */
  followUp: string;
  followReply: string;
  /** Asked about what the user said, and about what the assistant answered. */
  askerQ: string;
  assistantQ: string;
}

const SESSIONS: Session[] = [
  {
    user: 'I tore the meniscus in my left knee playing five-a-side in March and going down stairs still hurts. The surgeon says no operation for now. What can I do at home to get it stronger?',
    reply: "Since surgery is off the table, I'd build the knee up gradually. Start with twenty minutes a day on a stationary bike at low resistance, then add straight-leg raises and shallow wall sits, three sets of ten each. Leave out deep squats, lunges and running for the first six weeks, and put ice on it for fifteen minutes after each session if it swells. If you can, book two or three sessions with a physiotherapist so they can check your form and progress the load.",
    followUp: 'Should I be wearing a brace when I walk the dog?',
    followReply: 'A light sleeve can help you feel more confident on uneven ground, but it is not needed for short flat walks. Most people wean themselves off it as the muscles around the joint come back.',
    askerQ: 'What did I tell you happened to my knee?',
    assistantQ: 'What did you recommend for my knee?',
  },
  {
    user: "My wife and I are spending four nights in Lisbon in May for our tenth anniversary. She really can't manage steep hills, so I'd like somewhere central but flat. Any ideas where to stay?",
    reply: "For a flat and central base I'd book the Avenida Palace, right beside Rossio station: Baixa is the one level part of the old town, and you can walk to the river, the Chiado shops and the tram stops without climbing. Ask for a room facing the square for the anniversary. For the hilltop viewpoints take the Santa Justa lift or tram 28 up and walk down, and keep Alfama for a tuk-tuk tour rather than on foot.",
    followUp: 'Is it worth getting the Lisboa Card for four days?',
    followReply: 'It pays off if you plan to use public transport a lot and visit two or three museums a day. For a slower anniversary trip, single tickets and a rechargeable Viva Viagem card are usually cheaper.',
    askerQ: 'Where did I say we are going for our anniversary?',
    assistantQ: 'Which hotel did you suggest for my trip?',
  },
  {
    user: "My mum is coming for lunch on Sunday and she's coeliac, and my partner doesn't eat any animal products. I need one main dish everyone can share without me cooking three meals.",
    reply: "A chickpea and spinach curry covers everyone. Soften an onion with three cloves of garlic and a thumb of ginger, stir in two teaspoons of garam masala and one of turmeric, then add two tins of chickpeas, a tin of coconut milk and a tin of tomatoes. Simmer for twenty minutes, fold in 200 g of spinach at the end and serve it with basmati rice. Check that the stock cube and the spice mix are labelled gluten-free, and it is vegan as it stands.",
    followUp: 'What could I make for dessert for the same table?',
    followReply: 'Poached pears in red wine or a mango sorbet work for both diets. Fruit with dark chocolate sauce made with coconut cream is another easy option.',
    askerQ: "What did I mention about my mum's diet?",
    assistantQ: 'What was the recipe you gave me for the Sunday lunch?',
  },
  {
    user: 'I take home about 2,400 a month, rent is 900, and I have around 3,000 sitting on a credit card at 19 percent. I keep paying the minimum and it never seems to go down.',
    reply: "Tackle the card before anything else, because nothing you save will earn 19 percent. Set up a standing order of 500 a month to the card on payday, which clears it in about seven months, and cut it up or freeze it in the app so it cannot grow again. Keep a small buffer of 1,000 in an instant-access account for surprises while you do it. Once the card is gone, redirect the same 500 into savings until you have three months of expenses put aside.",
    followUp: 'Would a balance transfer card be a better idea?',
    followReply: 'A zero percent transfer can save interest if you qualify and pay the transfer fee, usually around three percent. It only works if you clear the balance before the offer ends.',
    askerQ: 'How much did I say my rent is?',
    assistantQ: 'How much did you tell me to put towards the credit card each month?',
  },
  {
    user: "I've never run further than 5k and I've just signed up for the Porto half marathon on the 8th of November. I work long days, so I can train three times a week at most.",
    reply: "Twelve weeks at three runs a week is enough for a first half. Make Sunday the long run and build it from 6 km to 18 km, adding a kilometre or two each week and easing back every fourth week. Midweek, do one easy run of 5 to 7 km and one tempo session of 20 minutes at a comfortably hard pace. Add ten minutes of squats and planks after the easy run, and taper in the last ten days by halving the distance.",
    followUp: 'What should I eat on the morning of the race?',
    followReply: 'Something you have already tried before a long run, two or three hours before the start: porridge with a banana or toast with honey. Race morning is not the time for anything new.',
    askerQ: 'Which race did I sign up for?',
    assistantQ: 'What training plan did you put together for me?',
  },
  {
    user: "I've got a final-round interview next Thursday for a product manager job at a logistics start-up. I've only ever worked as a backend engineer, so I'm worried they'll see me as too technical.",
    reply: "Lean on the engineering background rather than hiding it: prepare three short stories where you changed what got built, not only how, each told as situation, action and result. Read Marty Cagan's Inspired over the weekend, it is the book most product interviewers have in their heads. Practise one product sense question aloud, for example how you would improve a parcel-tracking page, and end with questions about how they measure delivery success.",
    followUp: 'How do I answer if they ask why I want to leave engineering?',
    followReply: 'Frame it as moving towards the problems you already enjoyed, such as talking to users or choosing priorities, rather than away from coding.',
    askerQ: 'What role did I say I was interviewing for?',
    assistantQ: 'Which book did you point me to before my interview?',
  },
  {
    user: 'Since the baby arrived I wake up at four every night, even on the nights she sleeps through. Then I lie there for an hour and I am wrecked by the afternoon.',
    reply: "That pattern is very common after months of broken nights. Keep the same wake-up time of seven even at weekends, put screens away an hour before bed, and if you are awake for more than twenty minutes get up and read in dim light until you feel sleepy. The Sleepio app walks you through a six-week programme of this kind of sleep training, and it is worth a try before asking your doctor about anything stronger.",
    followUp: 'Is a nap in the afternoon a bad idea then?',
    followReply: 'A short nap of twenty minutes before three in the afternoon is fine. Longer or later naps make it harder to fall asleep at night.',
    askerQ: 'What did I tell you about my sleep since the baby came?',
    assistantQ: 'Which app did you mention for getting my sleep back?',
  },
  {
    user: 'Our rescue terrier Pip goes mad at every bicycle that passes the front window and lunges at them on walks. We have had him six weeks and it is getting worse.',
    reply: "Work on it from a distance where Pip notices the bikes but can still take food. Each time a bike passes, give him a piece of chicken or cheese, so bikes start to predict good things, and stop giving treats once it has gone. Cover the lower half of the front window with frosted film so he cannot rehearse the barking all day. On walks keep him on a short lead on the inside of the pavement, and cross the road or turn away before he reacts.",
    followUp: 'Would a harness be better than a collar for him?',
    followReply: 'Yes, a front-clip harness takes the pressure off his neck when he lunges and gives you more control while he learns.',
    askerQ: 'What problem did I describe with Pip?',
    assistantQ: 'How did you say I should train Pip out of it?',
  },
  {
    user: 'Our new flat has a balcony that faces north and only gets a couple of hours of sun late in the afternoon. I would love some green out there but everything I plant dies.',
    reply: "Pick plants that like shade instead of fighting the light. Ferns, hostas and heucheras will do well in large pots, and for something to eat try mint, parsley and chives, which cope with little sun. Use a peat-free compost with a handful of grit for drainage, water when the top two centimetres are dry, and feed once a month in summer. A climbing hydrangea on a trellis would cover the back wall in a couple of years.",
    followUp: 'Can I keep them out there over the winter?',
    followReply: 'Most of those are hardy and can stay outside. Wrap the pots in fleece or bubble wrap during frosts so the roots do not freeze.',
    askerQ: 'Which way did I say my balcony faces?',
    assistantQ: 'Which plants did you suggest for my balcony?',
  },
  {
    user: 'My nephew turns fourteen next month. He has just started learning the bass and he is obsessed with the Red Hot Chili Peppers. I want to spend about 120 euros on him.',
    reply: "At that budget, a small practice amplifier is the present he will use every day: the Fender Rumble 25 costs around 120 euros and has a headphone socket, so his parents will thank you too. If he already has an amp, get him a year of lessons on an app like Yousician plus a Flea signature strap. A songbook of Chili Peppers bass lines would be a cheap extra he will love.",
    followUp: 'How do I wrap an amplifier nicely?',
    followReply: 'Put it in a plain cardboard box first so the shape is a surprise, then wrap the box and tie a spare set of strings to the bow.',
    askerQ: 'What did I tell you my nephew is into?',
    assistantQ: 'What was your gift suggestion for my nephew?',
  },
];

/** long-chats' memories, then the new sessions (ids `Y…`) from their own random stream. */
export function whoSaidCorpus(): Corpus {
  const { corpus: base } = longChatsWithFacts();
  const r = rng(22_31);
  const docs: CorpusDoc[] = [...base.docs];
  const questions: CorpusQuestion[] = [];
  let t = Date.parse(base.docs.at(-1)!.ts) + 6 * 86_400_000;
  SESSIONS.forEach((s, i) => {
    const session = `Y${i + 1}`;
    const turns: [string, string][] = [['user', s.user], ['assistant', s.reply], ['user', s.followUp], ['assistant', s.followReply]];
    turns.forEach(([name, content], j) => {
      docs.push({ id: `${session}:${j + 1}`, type: 'message', name, session, ts: new Date(t).toISOString(), content });
      t += (2 + Math.floor(r() * 5)) * 60_000;
    });
    questions.push({ id: `tq${2 * i + 1}`, q: s.askerQ, evidence: [`${session}:1`], split: 'tune' });
    questions.push({ id: `tq${2 * i + 2}`, q: s.assistantQ, evidence: [`${session}:2`], split: 'tune' });
    t += (2 + Math.floor(r() * 6)) * 86_400_000;
  });
  return { name: 'who-said', shape: "long-chats plus sessions where the user states a situation and the assistant answers with something specific; tuning questions only, asking what the user said or what the assistant recommended", docs, questions };
}

/** Whose turn each question's evidence is: the asker's (odd ids) or the assistant's (even ids). */
export function whoSaidKinds(): Map<string, WhoSaidKind> {
  return new Map(SESSIONS.flatMap((_, i) => [[`tq${2 * i + 1}`, 'asker'], [`tq${2 * i + 2}`, 'assistant']] as const));
}
