/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Spin model of the sub-buffer ring buffer protocol (one per-CPU buffer).
 *
 * Three writers run on the buffer's CPU: a task (level 0), a hard
 * interrupt (level 1) and an NMI (level 2).  A writer of a higher level
 * may interrupt a lower one between any two of its steps and runs to the
 * end of its record before the interrupted writer goes on.  The reader
 * runs on another CPU and interleaves freely with all of them.
 *
 * The unit of space is a slot (one 4-byte word of the real buffer; the
 * sub-buffer header is kept beside the slots).  A record takes one slot,
 * or two when it needs a TIME_EXTEND or an absolute TIME_STAMP in front.
 * Offsets are free running: sub-buffer index and position come from
 * division, as they come from masking in C.
 *
 * The names of the inline blocks are those of the C functions they model
 * (kernel/trace/ring_buffer_subbuf.c).  Spin explores every interleaving
 * under sequential consistency; the memory barriers that give the same
 * order on weakly ordered CPUs are argued in the C code, not here.
 *
 * Compile-time knobs (spin -D...): OVERWRITE (1 = flight recorder,
 * 0 = discard mode), NSB/SBS geometry, NW0/NW1/NW2 records per writer,
 * DISCARD (the task writer may discard its records), and the BUG_* seeds
 * that check.sh uses to show the properties are not vacuous.
 */

#ifndef NSB
#define NSB		2	/* sub-buffers in the buffer */
#endif
#ifndef SBS
#define SBS		4	/* slots per sub-buffer */
#endif
#define BUFS		(NSB * SBS)
#define NPAGE		(NSB + 1)	/* ring pages plus the reader's spare */

#ifndef OVERWRITE
#define OVERWRITE	1
#endif
#ifndef DMAX
#define DMAX		2	/* a delta >= DMAX needs a TIME_EXTEND */
#endif
#ifndef NW0
#define NW0		3
#endif
#ifndef NW1
#define NW1		2
#endif
#ifndef NW2
#define NW2		1
#endif
#define NREC		(NW0 + NW1 + NW2)

/*
 * Reachability probes: spin -DCOVER=n turns probe n into an assertion
 * that its situation never happens, so a counterexample shows that the
 * checks do explore it.
 */
#ifdef COVER
#define PROBE(n, cond)	if :: COVER == n -> assert(!(cond)) :: else fi
#else
#define PROBE(n, cond)	skip
#endif
#define NWRITERS	3
#define NONE		255

/* Slot contents, as the record types of the ftrace format. */
#define K_DATA		1	/* record, val = time delta */
#define K_EXT		2	/* TIME_EXTEND, val = time delta; record follows */
#define K_ABS		3	/* TIME_STAMP, val = absolute time; record follows */
#define K_PAD		4	/* PADDING to the end of the sub-buffer */
#define K_DISC		5	/* discarded record: PADDING keeping its delta */

/*
 * Sub-buffer id word, as in the writer's table and the reader's spare:
 * page number, "no reference" flag (delivered, no writer in it, the
 * reader may take it) and the generation (wrap count) it was delivered
 * for.
 */
#define ID(p, nr, w)	((p) | ((nr) << 2) | (((w) % 32) << 3))
#define ID_PAGE(id)	((id) & 3)
#define ID_NOREF(id)	(((id) >> 2) & 1)
#define ID_TAG(id)	((id) >> 3)

/* ---- the buffer ---- */
byte offset;			/* free-running write offset */
byte lts;			/* time of the record that ends at lts_end */
byte lts_end = NONE;
byte clk = 1;			/* the trace clock: strictly increasing */
byte cc[NSB];			/* commit count, cumulative over wraps */
byte cc_sb[NSB];		/* delivered up to this commit count */
byte rc[NSB];			/* records committed, cumulative */
byte rc_base[NSB];		/* rc at the last delivery */
byte nrec[NSB];			/* records of the last delivered generation */
byte pad[NSB];			/* tail padding of the current generation */
byte wsb[NSB];			/* writer's table of sub-buffer ids */
byte rsb = NSB;			/* the reader's spare page */
byte cpos;			/* consumed position ... */
byte ck;			/* ... and records consumed of its sub-buffer */
byte kind[NPAGE * SBS];
byte val[NPAGE * SBS];
byte rid[NPAGE * SBS];
byte hdr_ts[NPAGE];		/* sub-buffer header: time_stamp */
byte hdr_len[NPAGE];		/* sub-buffer header: commit (slots) */

/* ---- CPU state: which writer level runs ---- */
byte top;
bit busy[NWRITERS];
byte ndone;

/* ---- ghost state for the properties ---- */
byte pgen[NPAGE * SBS];		/* sub-buffer sequence a slot was written for */
bit pcommitted[NPAGE * SBS];	/* ... and whether it is committed */
byte true_ts[NREC];		/* the time each writer really read */
bit readmark[NREC];
byte written, nread, overrun, dropped, cover;
byte nresv;			/* successful reservations */
byte ncons;			/* changes of the consumed position */
byte nidchg;			/* changes of the writer's table */
byte dgen[NSB];			/* next generation to deliver, per index */
byte pend[NSB];			/* commits added but not through rb_commit() */
byte held = NONE;		/* page the reader took out of the ring */
byte cp_page = NONE;		/* page the reader copies in place ... */
byte cp_lo, cp_hi;		/* ... slot range */
bit cp_torn;			/* a writer wrote into that range */
byte lastts;			/* last time the reader delivered */

/* A writer stores a slot: never into what the reader holds. */
inline rb_store(p, s, k, v, r)
{
	atomic {
		assert(p != held);
		if
		:: p == cp_page && s >= cp_lo && s < cp_hi -> cp_torn = 1
		:: else
		fi;
		kind[p * SBS + s] = k;
		val[p * SBS + s] = v;
		rid[p * SBS + s] = r;
		pgen[p * SBS + s] = seq;
		pcommitted[p * SBS + s] = 0
	}
}

/*
 * rb_get_page(): the page behind sub-buffer index ix for a writer that
 * has a reservation in it.  The first writer of a generation finds the
 * "no reference" flag its previous delivery set and clears it by
 * cmpxchg; from then on the reader cannot swap the page out.
 */
inline rb_get_page(ix)
{
	do
	:: atomic { id = wsb[ix]; seeni = nidchg }
		if
		:: !ID_NOREF(id) -> p = ID_PAGE(id); break
		:: else
		fi;
		atomic {
			if
			:: wsb[ix] == id ->
				wsb[ix] = id & ~4;
				nidchg++;
				p = ID_PAGE(id);
				ok = 1
			:: else -> assert(nidchg != seeni); ok = 0
			fi
		}
		if
		:: ok -> break
		:: else
		fi
	od
}

/*
 * rb_deliver(): end-of-sub-buffer work, done once by the writer that
 * claimed generation gw of index ix (rb_claim_delivery()).  The "no
 * reference" flag is set before cc_sb says the generation is delivered,
 * so that the first writer of the next generation always finds the flag
 * to clear.
 */
inline rb_deliver(ix, gw)
{
	atomic {
		assert(dgen[ix] == gw);
		dgen[ix]++;
		assert(!ID_NOREF(wsb[ix]));
		p = ID_PAGE(wsb[ix]);
		nrec[ix] = rc[ix] - rc_base[ix];
		rc_base[ix] = rc[ix];
		hdr_len[p] = SBS - pad[ix];
		pad[ix] = 0
	}
#ifdef BUG_NOREF_LATE
	cc_sb[ix] = (gw + 1) * SBS;
	atomic { wsb[ix] = ID(p, 1, gw); nidchg++ }
#else
	atomic { wsb[ix] = ID(p, 1, gw); nidchg++ }
	cc_sb[ix] = (gw + 1) * SBS;
#endif
}

/*
 * rb_claim_delivery(): if generation gw of index ix is complete, claim
 * its delivery by cmpxchg of cc_sb from the count of the generation
 * before to that plus one (no delivered count is odd); cl says whether
 * this writer got it.  Two writers may try for one generation: its last
 * committer, when it found the offset past the sub-buffer, and the first
 * writer of the next one (rb_deliver_prev()), nested in either order.
 * The reads of the count (and, in rb_commit(), of the offset) and the
 * cmpxchg are one step here: a writer nested between them in C can only
 * claim the generation first, which the cmpxchg then finds, as it does
 * here when that writer runs before the step.
 */
inline rb_claim_delivery(ix, gw)
{
#ifdef BUG_NO_CLAIM
	cl = cc[ix] == (gw + 1) * SBS
#else
	if
	:: cc[ix] == (gw + 1) * SBS && cc_sb[ix] == gw * SBS ->
		cc_sb[ix] = gw * SBS + 1;
		cl = 1
	:: else ->
		PROBE(17, cc[ix] == (gw + 1) * SBS && cc_sb[ix] == gw * SBS + 1);
		cl = 0
	fi
#endif
}

/*
 * rb_commit(): local_add() of the slot count to the commit counter, then
 * a look at the offset (D): only if writers have moved past this
 * sub-buffer may this commit be its last and deliver it.  Otherwise a
 * later commit completes it, or, when the offset is at its very end, the
 * next writer delivers it (rb_deliver_prev()).  Record count and data
 * are stored before (smp_wmb() in C, pairing with the reader's smp_rmb()
 * between reading cc and reading the data).  pend (ghost) counts the
 * writers between their add and their look at the offset.
 */
inline rb_commit(ix, gw, first, n, r, early)
{
	atomic {
		j = 0;
		do
		:: j < n -> pcommitted[p * SBS + first + j] = 1; j++
		:: else -> break
		od;
		rc[ix] = rc[ix] + r;
		written = written + r
	}
	atomic { cc[ix] = cc[ix] + n; pend[ix]++ }
#ifdef BUG_DELIVER_EARLY
	/* the switching writer delivers without looking at the count */
	if
	:: early && dgen[ix] == gw -> rb_deliver(ix, gw)
	:: else
	fi;
#endif
	atomic {
		cl = 0;
		if
		:: (offset - 1) / SBS != gw * NSB + ix -> rb_claim_delivery(ix, gw)
		:: else
		fi;
		pend[ix]--
	}
	if
	:: cl -> rb_deliver(ix, gw)
	:: else
	fi
}

/*
 * rb_new_subbuf_failed(): a check before a new sub-buffer failed.  If the
 * offset moved since the writer read it, nested writers began that
 * sub-buffer or later ones meanwhile: look again (stale).  Otherwise the
 * record is lost and counted in @lost; @genuine says what must then hold.
 */
inline rb_new_subbuf_failed(lost, genuine)
{
	if
#ifndef BUG_STALE_FAIL
	:: offset != o -> stale = 1
#endif
	:: else ->
		assert(genuine);
		lost++;
		ok = 0;
		goto reserve_out
	fi
}

/*
 * rb_push_reader(): before the first reservation of a generation, make
 * sure the previous generation of that sub-buffer has been consumed.  In
 * discard mode the writer fails instead; in overwrite mode it moves the
 * consumed position past it by cmpxchg and counts what the reader has
 * not consumed of it as overrun.  The push happens before the offset
 * cmpxchg so that no writer can store into the new generation while the
 * reader may still deliver the old one.  The pushed generation's record
 * count is read before the cmpxchg and added after it, in steps of their
 * own as in C: after the cmpxchg, nested writers may deliver the next
 * generation of that sub-buffer, which rewrites nrec (not within the
 * records per writer searched here: see ring-buffer-subbuf.rst).
 */
inline rb_push_reader()
{
	do
	:: atomic { c = cpos; k = ck; seenc = ncons }
		assert(c + BUFS >= b);	/* never more than a buffer behind */
		if
		:: c + BUFS >= b + SBS -> break
		:: else
		fi;
#if OVERWRITE
		n = nrec[idx];
		atomic {
			if
			:: cpos == c && ck == k ->
				cpos = b + SBS - BUFS;
				ck = 0;
				ncons++;
				PROBE(5, 1);
				PROBE(6, k > 0);
				ok = 1
			:: else -> assert(ncons != seenc); ok = 0
			fi
		}
		if
		:: ok ->
			overrun = overrun + n - k;
			break
		:: else
		fi
#else
		rb_new_subbuf_failed(dropped, true);
		break
#endif
	od
}

/*
 * rb_reserve(): read the offset, the last time stamp and the clock,
 * decide the slot, cmpxchg the offset; retry from the top when another
 * writer moved it.  The time delta is only used when lts_end says the
 * time stamp belongs to the record that ends where this one begins;
 * otherwise the record gets an absolute TIME_STAMP.
 */
inline rb_reserve()
{
#ifdef BUG_CLOCK_OUTSIDE
	atomic { now = clk; clk++ }
#endif
	do
	:: atomic { seen = nresv; o = offset }
#ifdef BUG_LTS_TORN
		le = lts_end;
		lt = lts;
#else
		atomic { le = lts_end; lt = lts }
#endif
#ifndef BUG_CLOCK_OUTSIDE
		atomic { now = clk; clk++ }
#endif
		d_step {
			x = o % SBS;
			sw = 0;
			if
			:: x == 0 -> sz = 1; ck_ = K_DATA; d = 0
			:: x != 0 && le == o && now - lt < DMAX ->
				sz = 1; ck_ = K_DATA; d = now - lt
			:: x != 0 && le == o && now - lt >= DMAX ->
				sz = 2; ck_ = K_EXT; d = now - lt
			:: x != 0 && le != o -> sz = 2; ck_ = K_ABS; d = now
			fi;
			if
			:: x != 0 && x + sz > SBS ->
				/* switch: pad the rest, start the next one */
				sw = 1;
				b = o + SBS - x;
				sz = 1;
				ck_ = K_DATA;
				d = 0
			:: else -> b = o
			fi;
			e = b + sz;
			idx = (b / SBS) % NSB;
			w = b / BUFS;
			seq = b / SBS
		}
		if
		:: b % SBS == 0 ->
#ifndef BUG_NO_DELIVER_PREV
			/*
			 * rb_deliver_prev(): the sub-buffer before, if its
			 * last commit left it to this writer (exact fill).
			 */
			if
			:: b >= SBS ->
				atomic {
					rb_claim_delivery((b / SBS - 1) % NSB,
							  (b / SBS - 1) / NSB)
				}
				if
				:: cl ->
					PROBE(16, 1);
					rb_deliver((b / SBS - 1) % NSB,
						   (b / SBS - 1) / NSB)
				:: else
				fi
			:: else
			fi;
#endif
#ifndef BUG_NO_CC_SB_CHECK
			/*
			 * Commit overrun: the last generation is not
			 * delivered because a writer is still in it: one
			 * that has not committed, one between its commit
			 * and its look at the offset, or one delivering
			 * it (not because nested writers delivered this
			 * one too, nor because no one delivered it).
			 */
			if
			:: cc_sb[idx] != w * SBS ->
				rb_new_subbuf_failed(cover, cc_sb[idx] < w * SBS &&
					(cc[idx] != w * SBS || pend[idx] > 0 ||
					 cc_sb[idx] % SBS == 1))
			:: else
			fi;
#endif
#ifndef BUG_PUSH_AFTER
			if
			:: !stale -> rb_push_reader()
			:: else
			fi;
#endif
			skip
		:: else
		fi;
		PROBE(14, stale);
		if
		:: stale -> stale = 0; ok = 0
		:: else ->
			atomic {
				if
				:: offset == o -> offset = e; nresv++; ok = 1
				:: else -> assert(nresv != seen); ok = 0
				fi
			}
		fi;
		PROBE(11, !ok);
		if
		:: ok -> break
		:: else
		fi
	od;
	PROBE(1, ck_ == K_EXT);
	PROBE(2, ck_ == K_ABS);
	PROBE(3, sw);
#ifdef BUG_PUSH_AFTER
	if
	:: b % SBS == 0 -> rb_push_reader()
	:: else
	fi;
#endif
reserve_out:
	PROBE(4, cover > 0);
	PROBE(10, dropped > 0);
	skip
}

/*
 * rb_update_lts(): publish the time stamp for the next writer.  Time and
 * end offset are one word (in C: the low 32 bits of each, one 64-bit
 * store), so that a writer interrupted before it publishes cannot pair
 * its time with the end of a record a nested writer made meanwhile.  The
 * store is unconditional: a writer that was interrupted between its
 * cmpxchg and this store by writers that reserved after it publishes a
 * true pair that no longer matches the offset, and its successor takes
 * an absolute time stamp.
 */
inline rb_update_lts()
{
#ifdef BUG_LTS_TORN
	lts_end = NONE;
	lts = now;
	lts_end = e
#else
	atomic {
		lts = now;
		lts_end = e;
		/* A stale pair: writers reserved after this one meanwhile */
		PROBE(15, lts_end != offset)
	}
#endif
}

/* rb_switch_old(): pad and commit the rest of the sub-buffer at o. */
inline rb_switch_old()
{
	oi = (o / SBS) % NSB;
	ow = o / BUFS;
	os = seq;
	seq = o / SBS;
	rb_get_page(oi);
	rb_store(p, o % SBS, K_PAD, 0, NONE);
	pad[oi] = SBS - o % SBS;
	rb_commit(oi, ow, o % SBS, SBS - o % SBS, 0, 1);
	seq = os
}

proctype writer(byte lvl; byte todo; byte idbase)
	provided (top == _pid - 1 || (top < _pid - 1 && !busy[_pid - 1]))
{
	byte i, saved, seen, seenc, seeni, id, p, j, mine, c, k, n;
	byte o, le, lt, now, x, sz, ck_, d, b, e, idx, w, seq, oi, ow, os;
	bit ok, sw, disc, stale, cl;

	do
	:: i < todo ->
		atomic { saved = top; top = lvl; busy[lvl] = 1 }
		rb_reserve();
		if
		:: !ok && sw ->
			/*
			 * The record needed the next sub-buffer and cannot
			 * have it: close the current one (the rest becomes
			 * padding, as on a switch) unless another writer
			 * moved the offset meanwhile.  No retry.
			 */
			atomic {
				if
				:: offset == o -> offset = b; nresv++; ok = 1
				:: else
				fi
			}
			PROBE(13, ok);
			if
			:: ok -> rb_switch_old(); ok = 0
			:: else
			fi
		:: else
		fi;
		if
		:: ok ->
			rb_update_lts();
			if
			:: sw -> rb_switch_old()
			:: else
			fi;
			/* rb_write(): header, time extension, record */
			rb_get_page(idx);
			disc = 0;
#ifdef DISCARD
			if
			:: lvl == 0 -> disc = 1
			:: true
			fi;
#endif
			/* the stores of one record: one step of the model */
			atomic {
				if
				:: b % SBS == 0 -> hdr_ts[p] = now
				:: else
				fi;
				if
				:: sz == 2 ->
					rb_store(p, b % SBS, ck_, d, NONE);
					rb_store(p, b % SBS + 1,
						 (disc -> K_DISC : K_DATA), 0,
						 idbase + i)
				:: else ->
					rb_store(p, b % SBS,
						 (disc -> K_DISC : K_DATA), d,
						 idbase + i)
				fi;
				true_ts[idbase + i] = now
			}
			rb_commit(idx, w, b % SBS, sz, 1 - disc, 0)
		:: else
		fi;
		/* back to the interrupted level; dead locals cleared */
		d_step {
			top = saved; busy[lvl] = 0; i++;
			saved = 0; seen = 0; seenc = 0; seeni = 0; id = 0;
			p = 0; j = 0; mine = 0; c = 0; k = 0; n = 0; o = 0; le = 0;
			lt = 0; now = 0; x = 0; sz = 0; ck_ = 0; d = 0; b = 0;
			e = 0; idx = 0; w = 0; seq = 0; oi = 0; ow = 0; os = 0;
			ok = 0; sw = 0; disc = 0; cl = 0
		}
	:: else -> break
	od;
	ndone++
}

/*
 * rb_read_page(): decode the records of page pg in slots [from, to),
 * walking from the sub-buffer header as a reader of the format does.
 * Padding runs to the end of the sub-buffer; only a partial read of one
 * closed with padding and not delivered yet (padok) may meet it: a
 * delivered one's header leaves it out.
 * Anything wrong is noted in "bad" and asserted only if the consumed
 * cmpxchg then says the copy is the reader's to deliver.
 */
inline rb_read_page(pg, from, to, padok)
{
	ts = hdr_ts[pg];
	s = 0;
	ngot = 0;
	nlast = lastts;
	do
	:: s < to ->
		atomic {
			if
			:: s >= from && (pgen[pg * SBS + s] != seq ||
					 !pcommitted[pg * SBS + s]) -> bad = 1
			:: else
			fi;
			if
			:: kind[pg * SBS + s] == K_ABS -> ts = val[pg * SBS + s]
			:: kind[pg * SBS + s] == K_DISC && s >= from ->
				PROBE(12, 1);
				ts = ts + val[pg * SBS + s]
			:: kind[pg * SBS + s] == K_PAD ->
				bad = bad || (s >= from && !padok);
				PROBE(19, s >= from);
				s = to - 1
			:: else -> ts = ts + val[pg * SBS + s]
			fi;
			if
			:: kind[pg * SBS + s] == K_DATA && s >= from ->
				if
				:: rid[pg * SBS + s] >= NREC -> bad = 1
				:: else ->
					bad = bad || ts != true_ts[rid[pg * SBS + s]] ||
					      ts < nlast;
					nlast = ts;
					got[ngot] = rid[pg * SBS + s];
					ngot++
				fi
			:: else
			fi;
			s++
		}
	:: else -> break
	od
}

/* What a successful consumed cmpxchg makes the reader's: deliver it. */
inline rb_deliver_read()
{
	assert(!bad);
	j = 0;
	do
	:: j < ngot ->
		assert(!readmark[got[j]]);
		readmark[got[j]] = 1;
		nread++;
		j++
	:: else -> break
	od;
	lastts = nlast
}

proctype reader()
{
	byte c, k, idx, w, sbs, seq, id, p, o, cv, s, ts, j, ngot, nlast, n, nd;
	byte got[SBS];
	bit ok, bad;

	do
	:: d_step {
			id = 0; p = 0; o = 0; cv = 0; s = 0; ts = 0; j = 0;
			ngot = 0; nlast = 0; n = 0; ok = 0;
			for (j : 0 .. SBS - 1) {
				got[j] = 0
			}
			j = 0;
			nd = ndone;
			c = cpos;
			k = ck;
			sbs = c - c % SBS;
			idx = (c / SBS) % NSB;
			w = c / BUFS;
			seq = c / SBS;
			bad = 0
		}
		id = wsb[idx];
		if
#ifdef BUG_NO_TAG
		:: ID_NOREF(id) ->
#else
		:: ID_NOREF(id) && ID_TAG(id) == w % 32 ->
#endif
			/*
			 * rb_get_subbuf(): a delivered sub-buffer.  Swap it
			 * with the spare so no writer can store into it
			 * while it is read (and, in C, spliced).
			 */
#ifdef BUG_NO_SWAP
			ok = 1;
			p = ID_PAGE(id);
			held = p;
#else
			atomic {
				if
				:: wsb[idx] == id ->
					wsb[idx] = ID(rsb, 1, w);
					nidchg++;
					p = ID_PAGE(id);
					held = p;
					ok = 1
				:: else -> ok = 0
				fi
			}
#endif
			if
			:: ok ->
				n = nrec[idx];
				rb_read_page(p, c % SBS, hdr_len[p], 0);
				/* rb_consume(): the whole sub-buffer */
				atomic {
					if
					:: cpos == c && ck == k ->
						cpos = sbs + SBS;
						ck = 0;
						ncons++;
						assert(ngot == n - k);
						rb_deliver_read();
						PROBE(7, 1)
					:: else -> PROBE(9, 1)
					fi
				}
#ifndef BUG_NO_SWAP
				rsb = p;
#endif
				held = NONE
			:: else
			fi
		:: else ->
			/*
			 * rb_read_partial(): the sub-buffer writers are in.
			 * Commit count first, offset second: if the count
			 * then equals what was reserved, every slot up to
			 * the offset is committed.
			 */
#ifdef BUG_CC_ORDER
			o = offset;
			cv = cc[idx];
#else
			cv = cc[idx];
			o = offset;
#endif
			/* Up to the offset, or all of it, filled exactly */
			ok = (o / SBS == seq || o == sbs + SBS) && o > c;
#ifndef BUG_NO_COMMIT_CHECK
			ok = ok && cv - w * SBS == o - sbs;
#endif
			if
			:: ok ->
				p = ID_PAGE(wsb[idx]);
				atomic {
					cp_page = p;
					cp_lo = c % SBS;
					cp_hi = o - sbs;
					cp_torn = 0
				}
				rb_read_page(p, c % SBS, o - sbs, o == sbs + SBS);
				atomic {
					if
					:: cpos == c && ck == k ->
						cpos = o;
#ifdef BUG_FULL_KEEPS_COUNT
						ck = k + ngot;
#else
						/* all of it: none of the next */
						ck = (o == sbs + SBS -> 0 : k + ngot);
#endif
						ncons++;
						assert(!cp_torn);
						rb_deliver_read();
						PROBE(8, 1);
						PROBE(18, o == sbs + SBS)
					:: else -> PROBE(9, 1)
					fi;
					cp_page = NONE
				}
			:: else ->
				/*
				 * Nothing to read: if the writers were done
				 * before this pass began, everything is read.
				 */
				if
				:: nd == NWRITERS ->
					assert(c == offset);
					break
				:: else ->
					/* sleep until something moves */
					(offset != o || cc[idx] != cv ||
					 wsb[idx] != id || cpos != c ||
					 ndone != nd)
				fi
			fi
		fi
	od;
	assert(nread + overrun == written)
}

init
{
	byte i;

	atomic {
		for (i : 0 .. NSB - 1) {
			wsb[i] = ID(i, 0, 0)
		}
		run writer(0, NW0, 0);
		run writer(1, NW1, NW0);
		run writer(2, NW2, NW0 + NW1);
		run reader()
	}
}
