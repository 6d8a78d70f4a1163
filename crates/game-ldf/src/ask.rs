//! Questions to the player who is not acting (version 9; digest 2.7, issue 7
//! item 4): when a mid-action decision of his is real (more than one legal
//! answer the doctrine cannot tell apart) and no standing order of his covers
//! it, the action stops, he is asked, and his answer (`retreat HEX`, `place
//! HEX`, or `pass` for the stated default) finishes it. A side that gave the
//! standing order is never asked. Asked now: the retreat hex after a DR (N1,
//! 13.12), the hex of a Roman cavalry unit the Germano-Parthian drew (N8,
//! 14.3) and the Germano-Parthian's hex for the revolt of a Bread & Circuses
//! the Roman refused (N6, 14.3). From version 10 also, before the CRT roll,
//! which reaction chits the defender plays (N2: They Shall Not Pass, Flanking
//! Move, Inspired Subordinates), whether the Roman sponsors the games of a
//! Bread & Circuses the Germano-Parthian drew (N5, before its die), and the
//! Roman's negative salt and Agents before a Germano-Parthian diplomacy or
//! treachery roll (N4, 8.8). Whether to ask depends only on what both sides
//! see (the hand's count, the treasury), never on what the hand holds.
//!
//! From version 11 also, in the middle of an elimination's cascade, where
//! the new emperor is proclaimed among hexes tied for the largest army (N9,
//! 14.4 stand-in), where each vexillation of a stack left over the limit
//! unstacks (N10, 10.7), and how Rome covers a deficit met in the
//! Germano-Parthian's action (N7, 6.10). What is left of the action when
//! such a question stops it (the rest of the unstacking, the payment, the
//! battle's advance and free draw...) is kept in the question as [`Then`]
//! steps, pushed by each caller as the action unwinds and carried out in
//! order after the answer.
//!
//! Beseech the Gods (N3) stays a standing order only: asking only the holder
//! of chit 2 would tell the other side who holds it, and asking after every
//! roll would make every roll a round trip.

pub use super::cascade::Then;
use super::combat::Battle;
use super::data::{Data, UnitId};
use super::effects::{Ctx, illegal};
use super::orders::{Advance, Attack, DipTarget, Order};
use super::state::{Player, State};
use serde::{Deserialize, Serialize};
use umpire_core::hex::Hex;
use umpire_core::ruleset::RuleError;

/// A question waiting for its answer, with what is left of the action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Question {
    /// Who is asked.
    pub to: Player,
    /// The legal answers, the default (the doctrine's own pick) first.
    pub hexes: Vec<Hex>,
    /// What the answer decides.
    pub about: About,
    /// What is left of the action after the answer's own step (version 11),
    /// innermost first. Left out of the state's bytes while empty, so every
    /// state of version 10 hashes as it did.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub then: Vec<Then>,
}

/// What a question decides, and how the action goes on after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum About {
    /// N1, 13.12: where the defenders of a DR retreat; then the rest of
    /// the attack (advance, free draw).
    Retreat {
        /// The battle.
        battle: Battle,
        /// The attacker's advance order (13.14).
        advance: Advance,
        /// The attacker's free draw if he wins (8.19).
        draw: bool,
    },
    /// N8, 14.3: where a drawn Roman cavalry unit joins the army; then the
    /// reserve roll.
    Cavalry {
        /// The unit.
        unit: UnitId,
    },
    /// N6, 14.3: which hex rises behind the rebel garrison of a refused
    /// Bread & Circuses.
    Revolt {
        /// The garrison counter.
        garrison: UnitId,
    },
    /// N2, 14.3 (version 10): which reaction chits the defender plays after
    /// the attack is declared and before the die; then the rest of the
    /// attack.
    React {
        /// The battle, its German combat factors already rolled (R-E8).
        battle: Battle,
        /// The attacking strength (siege doubling included).
        att: u32,
        /// The defending strength.
        def: u32,
        /// The attack order, for its advance, losses and free draw.
        attack: Attack,
    },
    /// N5, 14.3 (version 10): whether the Roman sponsors the games of the
    /// Bread & Circuses the Germano-Parthian drew, decided before the die.
    Games,
    /// N4, 8.8 (version 10): the Roman's negative salt and Agents before a
    /// Germano-Parthian diplomacy or treachery roll; then the order again.
    Salt {
        /// The diplomacy's target; none for treachery against the emperor.
        target: Option<DipTarget>,
        /// The Germano-Parthian plays his own Agents.
        agents: bool,
        /// Treachery against the emperor (the standing `salt treachery`).
        vs_emperor: bool,
    },
    /// N9, 8.9 and 14.4 (version 11): where the new emperor is proclaimed
    /// among the hexes tied for the largest army; then the table's TP die.
    Succession {
        /// The Emperor Creation Table roll (for the report).
        roll: u32,
        /// The row costs Rome a die of TP.
        tp_die: bool,
    },
    /// N7, 6.10 (version 11): how Rome covers a deficit met in the
    /// Germano-Parthian's action, one step (a tax or a demobilization) an
    /// answer; then the payment and the rest of the action.
    Deficit {
        /// The TP due.
        due: u32,
        /// What they pay for.
        why: String,
    },
    /// N10, 10.7 (version 11): where a vexillation of a stack left over the
    /// limit unstacks; then the rest of the unstacking.
    Unstack {
        /// The stack's hex.
        hex: Hex,
        /// The vexillation that leaves.
        unit: UnitId,
    },
}

impl Question {
    /// The answer's keyword.
    fn keyword(&self) -> &'static str {
        match self.about {
            About::Retreat { .. } => "retreat",
            About::Cavalry { .. }
            | About::Revolt { .. }
            | About::Succession { .. }
            | About::Unstack { .. } => "place",
            About::React { .. } => "react",
            About::Games => "sponsor",
            About::Salt { .. } => "salt",
            About::Deficit { .. } => "tax",
        }
    }

    /// The rule the question stands on.
    fn rule(&self) -> &'static str {
        match self.about {
            About::Retreat { .. } => "13.12; N1",
            About::Cavalry { .. } => "14.3; N8",
            About::Revolt { .. } => "14.3; N6",
            About::React { .. } => "14.3; N2",
            About::Games => "14.3; N5",
            About::Salt { .. } => "8.8; N4",
            About::Succession { .. } => "8.9, 14.4; N9",
            About::Deficit { .. } => "6.10; N7",
            About::Unstack { .. } => "10.7; N10",
        }
    }

    /// The question as the mail asks it.
    pub fn ask(&self, d: &Data) -> String {
        let what = match &self.about {
            About::Retreat { battle, .. } => format!(
                "your units in {} must retreat (DR) and the doctrine ties",
                battle.target
            ),
            About::Cavalry { unit } => format!(
                "the Germano-Parthian drew cavalry {}: where does it join your army",
                d.uid(*unit)
            ),
            About::Revolt { .. } => {
                "Rome refused Bread & Circuses: which hex rises behind the rebel garrison".into()
            }
            About::Succession { roll, .. } => format!(
                "the emperor is eliminated and the Emperor Creation Table roll {roll} proclaims the general of the largest army, but two or more hexes tie: where is the new emperor proclaimed"
            ),
            About::Unstack { hex, unit } => format!(
                "your stack in {hex} is over the limit without its leader and {} must unstack into an adjacent land hex: where does it go",
                d.uid(*unit)
            ),
            About::React {
                battle, att, def, ..
            } => {
                // Not a word about his hand: the prompt names no chit, so
                // nothing here tells what he holds (10.9).
                let k = super::combat::odds_step(*att, *def);
                return format!(
                    "{att} attack {def} in {} ({} before the defence's shifts), before the die. Answer `react N...` with the chits you play from your hand (They Shall Not Pass, Flanking Move, Inspired Subordinates), `react none`, or `pass` for your standing default ({}); a standing order (`tsnp N`, `shift N`) answers it next time",
                    battle.target,
                    super::combat::step_name(k + battle.shift),
                    self.rule()
                );
            }
            About::Salt { .. } => {
                return format!(
                    "the Germano-Parthian rolls for diplomacy or treachery, before the die. Answer `salt N` (0 to 3 TP of negative salt from your treasury) or `salt N with 17` (and Agents in Enemy Camp, -2, if you hold it; at most 3 off in all, 8.8), or `pass` for your standing default ({}); a standing order (`salt treachery N`, `salt diplomacy N`, `agents yes|no`) answers it next time",
                    self.rule()
                );
            }
            About::Deficit { due, why } => {
                return format!(
                    "{why} costs Rome {due} TP and the treasury holds less: play halts while you cover it. Answer `tax HEX` (emergency taxation of one core centre, 6.6), `demobilize UNIT...` (a base and an infantry vexillation, or the over-supplied kind alone, 6.7), or `pass` for your standing default; one step an answer, you are asked again while TP are lacking ({}); a standing order (`deficit HEX... tax HEX...`) answers it next time",
                    self.rule()
                );
            }
            About::Games => {
                return format!(
                    "the Germano-Parthian drew Bread & Circuses, before the die. Answer `sponsor` (the treasury pays a die + 1), `refuse` (he may plant a rebel garrison in an empty core centre), or `pass` for your standing default ({}); a standing order (`sponsor N`) answers it next time",
                    self.rule()
                );
            }
        };
        let hexes: Vec<String> = self.hexes.iter().map(|h| d.hex_name(*h)).collect();
        format!(
            "{what}? Answer `{} HEX` with one of {}, or `pass` for the default, {} ({}); a standing order ({}) answers it next time",
            self.keyword(),
            hexes.join(", "),
            self.hexes[0],
            self.rule(),
            match self.about {
                About::Retreat { .. } => "rally HEX",
                About::Cavalry { .. } | About::Succession { .. } => "prefer HEX...",
                About::Unstack { .. } =>
                    "unstack to HEX... or unstack at HEX keep UNIT... to HEX...",
                _ => "revolt HEX...",
            }
        )
    }

    /// The hexes whose stacking waits for the answer (10.7): the stack
    /// unstacking, and those the steps after the answer deal with.
    pub fn waiting(&self) -> Vec<Hex> {
        let mut v: Vec<Hex> = self.then.iter().flat_map(Then::hexes).collect();
        if let About::Unstack { hex, .. } = self.about {
            v.push(hex);
        }
        v
    }

    /// The answers `legal` offers: for a reaction, each reaction chit he
    /// may play and all of them together.
    pub fn answers(&self, d: &Data, st: &State) -> Vec<String> {
        let mut v = vec!["pass".to_string()];
        match &self.about {
            About::React { battle, .. } => {
                v.push("react none".into());
                let cs = reactions(d, st, self.to, battle);
                v.extend(cs.iter().map(|c| format!("react {c}")));
                if cs.len() > 1 {
                    let all: Vec<String> = cs.iter().map(|c| c.to_string()).collect();
                    v.push(format!("react {}", all.join(",")));
                }
            }
            About::Games => v.extend(["sponsor".to_string(), "refuse".to_string()]),
            About::Deficit { .. } => v.extend(super::deficit::steps(d, st)),
            About::Salt { .. } => {
                let most = st.treasury.min(d.values.salt_max);
                v.extend((0..=most).map(|n| format!("salt {n}")));
                if super::chits::holds_effect(d, st, self.to, "agents").is_some() {
                    // With Agents (-2), at most 3 off in all (8.8).
                    let cap = d.values.modifier_cap;
                    let most = most.min(cap.saturating_sub(super::diplomacy::AGENTS));
                    v.push("salt 0 with 17".into());
                    if most > 0 {
                        v.push(format!("salt {most} with 17"));
                    }
                }
            }
            _ => v.extend(self.hexes.iter().map(|h| format!("{} {h}", self.keyword()))),
        }
        v
    }
}

/// The reaction chits `p` may play in `b` now (14.3): They Shall Not Pass
/// unless the attacker used Surprise Attack, Flanking Move, Inspired
/// Subordinates; none drawn in this action (R-G3).
pub fn reactions(d: &Data, st: &State, p: Player, b: &Battle) -> Vec<u8> {
    let mut v: Vec<u8> = st
        .hand(p)
        .iter()
        .copied()
        .filter(|c| !st.fresh.contains(c))
        .filter(|c| {
            d.chit(*c).is_some_and(|x| match x.effect.as_str() {
                "tsnp" => b.tsnp,
                "flanking" | "inspired" => true,
                _ => false,
            })
        })
        .collect();
    v.sort();
    v
}

/// The hex the answer picks: one of the question's, or the default for `pass`.
fn picked(q: &Question, o: &Order) -> Result<Hex, RuleError> {
    let h = match o {
        Order::Pass => return Ok(q.hexes[0]),
        Order::Answer { retreat, hex } if *retreat == (q.keyword() == "retreat") => *hex,
        _ => return Err(wrong(q)),
    };
    if !q.hexes.contains(&h) {
        let all: Vec<String> = q.hexes.iter().map(|h| h.to_string()).collect();
        let why = match q.about {
            About::Succession { .. } => " of the hexes tied for the largest army",
            About::Unstack { .. } => " of the adjacent land hexes the unit may enter and fit in",
            _ => "",
        };
        return Err(illegal(
            format!("{h} is not an answer: one{why} {}", all.join(" ")),
            q.rule(),
        ));
    }
    Ok(h)
}

/// The refusal of an order that does not answer the question.
fn wrong(q: &Question) -> RuleError {
    let form = match q.about {
        About::React { .. } => "`react N...`, `react none`",
        About::Games => "`sponsor`, `refuse`",
        About::Salt { .. } => "`salt N [with 17]`",
        _ if q.keyword() == "retreat" => "`retreat HEX`",
        _ => "`place HEX`",
    };
    illegal(format!("you are asked first: {form} or `pass`"), q.rule())
}

/// The reaction chits an answer plays: `None` for `pass` (the standing
/// default), else the chits named, each one he may play (14.3).
fn reacted(
    d: &Data,
    st: &State,
    q: &Question,
    b: &Battle,
    o: &Order,
) -> Result<Option<Vec<u8>>, RuleError> {
    let cs = match o {
        Order::Pass => return Ok(None),
        Order::React(cs) => cs,
        _ => return Err(wrong(q)),
    };
    let may = reactions(d, st, q.to, b);
    let mut seen = Vec::new();
    for c in cs {
        if seen.contains(c) {
            return Err(illegal(format!("chit {c} is named twice"), "8.18"));
        }
        super::chits::check_usable(st, q.to, *c)?;
        if !may.contains(c) {
            return Err(illegal(
                format!(
                    "chit {c} is not played for the defence now (They Shall Not Pass, not after Surprise Attack; Flanking Move; Inspired Subordinates)"
                ),
                q.rule(),
            ));
        }
        seen.push(*c);
    }
    Ok(Some(seen))
}

/// The Roman's negative salt and Agents an answer gives (8.8, 14.3), or for
/// `pass` his standing orders'.
fn salted(
    d: &Data,
    st: &State,
    q: &Question,
    o: &Order,
    (vs_emperor, version): (bool, u32),
) -> Result<(u32, bool), RuleError> {
    let (salt, agents) = match o {
        Order::Pass => return Ok(super::diplomacy::standing_salt(st, vs_emperor)),
        Order::Salt { salt, agents } => (*salt, *agents),
        _ => return Err(wrong(q)),
    };
    if salt > d.values.salt_max || salt > st.treasury {
        return Err(illegal(
            format!(
                "salt is 0 to {} TP, and no more than the treasury holds",
                d.values.salt_max
            ),
            "8.8",
        ));
    }
    if agents && super::chits::holds_effect(d, st, q.to, "agents").is_none() {
        return Err(illegal("you do not hold Agents in Enemy Camp", "14.3"));
    }
    // 8.8 "within the same general strictures": the negative salt and
    // Agents together take at most 3 off (version 14).
    let off = salt + if agents { super::diplomacy::AGENTS } else { 0 };
    if version >= 14 && off > d.values.modifier_cap {
        return Err(illegal(
            format!(
                "salt {salt}{} takes {off} off: no combination of salting and chit play may change a diplomacy or treachery roll by more than {}",
                if agents {
                    " with Agents in Enemy Camp (-2)"
                } else {
                    ""
                },
                d.values.modifier_cap
            ),
            "8.8",
        ));
    }
    Ok((salt, agents))
}

/// Whether an answer sponsors the games: `None` for `pass` (the standing
/// default).
fn sponsored(q: &Question, o: &Order) -> Result<Option<bool>, RuleError> {
    match o {
        Order::Pass => Ok(None),
        Order::Games(yes) => Ok(Some(*yes)),
        _ => Err(wrong(q)),
    }
}

/// Should the umpire ask `p` rather than answer for him: the order under
/// way may stop (version 9, the action's own draw or attack), and `p` is
/// not the player acting (N15: he decides for himself)?
pub fn may_ask(ctx: &Ctx, p: Player) -> bool {
    ctx.ask && p != ctx.actor
}

/// Stops the action on a question (the caller returns at once; every caller
/// up to the action checks [`State::question`]).
pub fn stop(ctx: &mut Ctx, st: &mut State, q: Question) {
    // The answers are his own business (the prompt tells him alone); the
    // report says only that the action waits for him.
    let what = match q.about {
        About::Retreat { .. } => "where his units retreat",
        About::Cavalry { .. } => "where the cavalry joins his army",
        About::Revolt { .. } => "where the revolt rises",
        About::React { .. } => "his defence before the die",
        About::Games => "whether Rome sponsors the games",
        About::Salt { .. } => "his salt before the die",
        About::Succession { .. } => "where the new emperor is proclaimed",
        About::Deficit { .. } => "how Rome covers its deficit",
        About::Unstack { .. } => "where his unit unstacks",
    };
    ctx.say(
        format!(
            "the action waits for the {} to decide {what} ({}; digest 2.7)",
            q.to.title(),
            q.rule()
        ),
        vec![],
    );
    st.question = Some(q);
}

/// Asks `to` when `rest` offers another answer than the default `first`
/// (the choice is real): stops the action and returns true; else false,
/// and the caller goes on with `first`.
pub fn ask_if_real(
    ctx: &mut Ctx,
    st: &mut State,
    to: Player,
    first: Hex,
    rest: Vec<Hex>,
    about: About,
) -> bool {
    if rest.is_empty() {
        return false;
    }
    let mut hexes = vec![first];
    hexes.extend(rest);
    let then = Vec::new();
    stop(
        ctx,
        st,
        Question {
            to,
            hexes,
            about,
            then,
        },
    );
    true
}

/// After a step that may have stopped on a question (version 11): if it
/// did, `rest` (what the caller still had to do) is kept in the question,
/// after what the steps below it kept, and true is returned: the caller
/// returns at once.
pub fn paused(st: &mut State, rest: impl FnOnce() -> Vec<Then>) -> bool {
    match st.question.as_mut() {
        Some(q) => {
            q.then.extend(rest());
            true
        }
        None => false,
    }
}

/// The answer: the action goes on from the question with the answer given.
/// Returns once it stops again or is done (the caller finishes the action
/// when no new question is asked).
pub fn answer(ctx: &mut Ctx, st: &mut State, o: &Order) -> Result<(), RuleError> {
    let Some(q) = st.question.clone() else {
        return Ok(());
    };
    answered(ctx, st, &q, o)?;
    super::cascade::resume(ctx, st, q.then)
}

/// The question's own step with the answer given.
fn answered(ctx: &mut Ctx, st: &mut State, q: &Question, o: &Order) -> Result<(), RuleError> {
    let q = q.clone();
    match q.about.clone() {
        About::React {
            battle,
            att,
            def,
            attack,
        } => react_answered(ctx, st, &q, o, (battle, att, def, attack)),
        About::Games => games_answered(ctx, st, &q, o),
        About::Salt {
            target,
            agents,
            vs_emperor,
        } => salt_answered(ctx, st, &q, o, (target, agents, vs_emperor)),
        About::Deficit { .. } => super::deficit::answered(ctx, st, o),
        about => hex_answered(ctx, st, &q, o, about),
    }
}

/// The reaction chits the answer plays against an attack, then the combat.
fn react_answered(
    ctx: &mut Ctx,
    st: &mut State,
    q: &Question,
    o: &Order,
    (battle, att, def, attack): (Battle, u32, u32, Attack),
) -> Result<(), RuleError> {
    let chosen = reacted(ctx.d, st, q, &battle, o)?;
    st.question = None;
    // Which chits he plays the combat reveals as it uses them.
    let how = match chosen.as_deref() {
        None => "by his standing order".to_string(),
        Some([]) => "with no reaction chit".to_string(),
        Some([_]) => "with a reaction chit".to_string(),
        Some(cs) => format!("with {} reaction chits", cs.len()),
    };
    ctx.say(
        format!("the {} answers {how}", q.to.title()),
        vec![battle.target],
    );
    super::combat::fight(ctx, st, battle, att, def, &attack, chosen)
}

/// Whether the player asked sponsors the games, then the games.
fn games_answered(ctx: &mut Ctx, st: &mut State, q: &Question, o: &Order) -> Result<(), RuleError> {
    let yes = sponsored(q, o)?;
    st.question = None;
    let how = match yes {
        Some(true) => "he sponsors the games",
        Some(false) => "he refuses the games",
        None => "by his standing order",
    };
    ctx.say(format!("the {} answers: {how}", q.to.title()), vec![]);
    super::chits::games(ctx, st, yes)
}

/// The negative salt the player asked puts against the Germano-Parthian's
/// treachery or diplomacy attempt (8.8), then the attempt.
fn salt_answered(
    ctx: &mut Ctx,
    st: &mut State,
    q: &Question,
    o: &Order,
    (target, agents, vs_emperor): (Option<DipTarget>, bool, bool),
) -> Result<(), RuleError> {
    let (salt, agents_too) = salted(ctx.d, st, q, o, (vs_emperor, ctx.version))?;
    ctx.salted = Some((salt, agents_too));
    st.question = None;
    ctx.say(
        format!(
            "the {} answers: {salt} TP of negative salt{} (8.8)",
            q.to.title(),
            if agents_too {
                " and Agents in Enemy Camp"
            } else {
                ""
            }
        ),
        vec![],
    );
    let gp = Player::Gp;
    match target {
        None => super::diplomacy::treachery(ctx, st, gp, 0, agents),
        Some(t) => super::diplomacy::diplomacy(ctx, st, gp, &t, 0, agents),
    }
}

/// A question answered with a hex (retreat, cavalry, revolt, succession,
/// unstacking), then its step.
fn hex_answered(
    ctx: &mut Ctx,
    st: &mut State,
    q: &Question,
    o: &Order,
    about: About,
) -> Result<(), RuleError> {
    let h = picked(q, o)?;
    st.question = None;
    ctx.say(
        format!("the {} answers {}", q.to.name(), ctx.d.hex_name(h)),
        vec![h],
    );
    match about {
        About::Retreat {
            battle,
            advance,
            draw,
        } => super::combat::retreat_answered(ctx, st, &battle, h, &advance, draw),
        About::Cavalry { unit } => super::chits::cavalry_at(ctx, st, st.actor, unit, Some(h)),
        About::Revolt { garrison } => {
            super::chits::revolt_at(ctx, st, garrison, h);
            Ok(())
        }
        About::Succession { roll, tp_die } => super::leaders::proclaim(ctx, st, h, roll, tp_die),
        About::Unstack { hex, unit } => super::leaders::unstack_answered(ctx, st, hex, unit, h),
        About::React { .. } | About::Games | About::Salt { .. } | About::Deficit { .. } => Ok(()),
    }
}
