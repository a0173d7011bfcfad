// SPDX-License-Identifier: MIT
/*
 * report.db's schema. The perf part repeats the tables and views of perf's
 * export-to-sqlite.py (Linux tools/perf/scripts/python, the variant without branch
 * samples, with call_paths), column for column, so that its exported-sql-viewer.py and
 * queries written against it run unchanged; tables perf creates for Intel PT
 * (ptwrite, cbr, ...) and calls are there, empty, because the viewer looks for them.
 * The uprof_* tables are ours; their ids point into the perf tables (threads.id ...).
 */
#include "export/sqlite_schema.h"

#define HEX(x) "printf('%x'," x ")"

/* clang-format off: SQL text, laid out as SQL */
const char rpt_sqlite_schema[] =
	/* ---- perf's tables ---- */
	"CREATE TABLE selected_events (id integer NOT NULL PRIMARY KEY, name varchar(80));"
	"CREATE TABLE machines (id integer NOT NULL PRIMARY KEY, pid integer,"
	" root_dir varchar(4096));"
	"CREATE TABLE threads (id integer NOT NULL PRIMARY KEY, machine_id bigint,"
	" process_id bigint, pid integer, tid integer);"
	"CREATE TABLE comms (id integer NOT NULL PRIMARY KEY, comm varchar(16),"
	" c_thread_id bigint, c_time bigint, exec_flag boolean);"
	"CREATE TABLE comm_threads (id integer NOT NULL PRIMARY KEY, comm_id bigint,"
	" thread_id bigint);"
	"CREATE TABLE dsos (id integer NOT NULL PRIMARY KEY, machine_id bigint,"
	" short_name varchar(256), long_name varchar(4096), build_id varchar(64));"
	"CREATE TABLE symbols (id integer NOT NULL PRIMARY KEY, dso_id bigint, sym_start bigint,"
	" sym_end bigint, binding integer, name varchar(2048));"
	"CREATE TABLE branch_types (id integer NOT NULL PRIMARY KEY, name varchar(80));"
	"CREATE TABLE samples (id integer NOT NULL PRIMARY KEY, evsel_id bigint,"
	" machine_id bigint, thread_id bigint, comm_id bigint, dso_id bigint, symbol_id bigint,"
	" sym_offset bigint, ip bigint, time bigint, cpu integer, to_dso_id bigint,"
	" to_symbol_id bigint, to_sym_offset bigint, to_ip bigint, period bigint, weight bigint,"
	" transaction_ bigint, data_src bigint, branch_type integer, in_tx boolean,"
	" call_path_id bigint, insn_count bigint, cyc_count bigint, flags integer);"
	"CREATE TABLE call_paths (id integer NOT NULL PRIMARY KEY, parent_id bigint,"
	" symbol_id bigint, ip bigint);"
	"CREATE TABLE calls (id integer NOT NULL PRIMARY KEY, thread_id bigint, comm_id bigint,"
	" call_path_id bigint, call_time bigint, return_time bigint, branch_count bigint,"
	" call_id bigint, return_id bigint, parent_call_path_id bigint, flags integer,"
	" parent_id bigint, insn_count bigint, cyc_count bigint);"
	"CREATE TABLE ptwrite (id integer NOT NULL PRIMARY KEY, payload bigint, exact_ip integer);"
	"CREATE TABLE cbr (id integer NOT NULL PRIMARY KEY, cbr integer, mhz integer,"
	" percent integer);"
	"CREATE TABLE mwait (id integer NOT NULL PRIMARY KEY, hints integer, extensions integer);"
	"CREATE TABLE pwre (id integer NOT NULL PRIMARY KEY, cstate integer, subcstate integer,"
	" hw integer);"
	"CREATE TABLE exstop (id integer NOT NULL PRIMARY KEY, exact_ip integer);"
	"CREATE TABLE pwrx (id integer NOT NULL PRIMARY KEY, deepest_cstate integer,"
	" last_cstate integer, wake_reason integer);"
	"CREATE TABLE context_switches (id integer NOT NULL PRIMARY KEY, machine_id bigint,"
	" time bigint, cpu integer, thread_out_id bigint, comm_out_id bigint,"
	" thread_in_id bigint, comm_in_id bigint, flags integer);"
	/* rows 0: "unknown", as perf's exporter writes them; machine 1 is the host */
	"INSERT INTO selected_events VALUES (0, 'unknown');"
	"INSERT INTO machines VALUES (0, 0, 'unknown');"
	"INSERT INTO machines VALUES (1, -1, '');"
	"INSERT INTO threads VALUES (0, 0, 0, -1, -1);"
	"INSERT INTO comms VALUES (0, 'unknown', 0, 0, 0);"
	"INSERT INTO comm_threads VALUES (0, 0, 0);"
	"INSERT INTO dsos VALUES (0, 0, 'unknown', 'unknown', '');"
	"INSERT INTO symbols VALUES (0, 0, 0, 0, 0, 'unknown');"
	"INSERT INTO branch_types VALUES (0, 'unknown');"
	"INSERT INTO samples VALUES (0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0);"
	"INSERT INTO call_paths VALUES (0, 0, 0, 0);"
	/* ---- perf's views ---- */
	"CREATE VIEW machines_view AS SELECT id, pid, root_dir, CASE WHEN id=0 THEN 'unknown'"
	" WHEN pid=-1 THEN 'host' ELSE 'guest' END AS host_or_guest FROM machines;"
	"CREATE VIEW dsos_view AS SELECT id, machine_id, (SELECT host_or_guest FROM"
	" machines_view WHERE id = machine_id) AS host_or_guest, short_name, long_name,"
	" build_id FROM dsos;"
	"CREATE VIEW symbols_view AS SELECT id, name, (SELECT short_name FROM dsos WHERE"
	" id=dso_id) AS dso, dso_id, sym_start, sym_end, CASE WHEN binding=0 THEN 'local'"
	" WHEN binding=1 THEN 'global' ELSE 'weak' END AS binding FROM symbols;"
	"CREATE VIEW threads_view AS SELECT id, machine_id, (SELECT host_or_guest FROM"
	" machines_view WHERE id = machine_id) AS host_or_guest, process_id, pid, tid"
	" FROM threads;"
	"CREATE VIEW comm_threads_view AS SELECT comm_id, (SELECT comm FROM comms WHERE"
	" id = comm_id) AS command, thread_id, (SELECT pid FROM threads WHERE id = thread_id)"
	" AS pid, (SELECT tid FROM threads WHERE id = thread_id) AS tid FROM comm_threads;"
	"CREATE VIEW call_paths_view AS SELECT c.id, " HEX(
	"c.ip") " AS ip, c.symbol_id,"
	" (SELECT name FROM symbols WHERE id = c.symbol_id) AS symbol, (SELECT dso_id FROM"
	" symbols WHERE id = c.symbol_id) AS dso_id, (SELECT dso FROM symbols_view WHERE"
	" id = c.symbol_id) AS dso_short_name, c.parent_id, " HEX(
	"p.ip") " AS parent_ip,"
	" p.symbol_id AS parent_symbol_id, (SELECT name FROM symbols WHERE id = p.symbol_id)"
	" AS parent_symbol, (SELECT dso_id FROM symbols WHERE id = p.symbol_id) AS"
	" parent_dso_id, (SELECT dso FROM symbols_view WHERE id = p.symbol_id) AS"
	" parent_dso_short_name FROM call_paths c INNER JOIN call_paths p ON p.id = c.parent_id;"
	"CREATE VIEW samples_view AS SELECT id, time, cpu, (SELECT pid FROM threads WHERE"
	" id = thread_id) AS pid, (SELECT tid FROM threads WHERE id = thread_id) AS tid,"
	" (SELECT comm FROM comms WHERE id = comm_id) AS command, (SELECT name FROM"
	" selected_events WHERE id = evsel_id) AS event, " HEX(
	"ip") " AS ip_hex, (SELECT"
	" name FROM symbols WHERE id = symbol_id) AS symbol, sym_offset, (SELECT short_name"
	" FROM dsos WHERE id = dso_id) AS dso_short_name, " HEX(
	"to_ip") " AS to_ip_hex,"
	" (SELECT name FROM symbols WHERE id = to_symbol_id) AS to_symbol, to_sym_offset,"
	" (SELECT short_name FROM dsos WHERE id = to_dso_id) AS to_dso_short_name, (SELECT"
	" name FROM branch_types WHERE id = branch_type) AS branch_type_name, in_tx,"
	" insn_count, cyc_count, CASE WHEN cyc_count=0 THEN CAST(0 AS FLOAT) ELSE"
	" ROUND(CAST(insn_count AS FLOAT) / cyc_count, 2) END AS IPC, flags FROM samples;"
	"CREATE VIEW context_switches_view AS SELECT context_switches.id, context_switches.machine_id,"
	" context_switches.time, context_switches.cpu, th_out.pid AS pid_out, th_out.tid AS"
	" tid_out, comm_out.comm AS comm_out, th_in.pid AS pid_in, th_in.tid AS tid_in,"
	" comm_in.comm AS comm_in, CASE WHEN context_switches.flags = 0 THEN 'in' WHEN"
	" context_switches.flags = 1 THEN 'out' WHEN context_switches.flags = 3 THEN"
	" 'out preempt' ELSE context_switches.flags END AS flags FROM context_switches INNER"
	" JOIN threads AS th_out ON th_out.id = context_switches.thread_out_id INNER JOIN"
	" threads AS th_in ON th_in.id = context_switches.thread_in_id INNER JOIN comms AS"
	" comm_out ON comm_out.id = context_switches.comm_out_id INNER JOIN comms AS comm_in"
	" ON comm_in.id = context_switches.comm_in_id;"
	/* ---- uprof's tables ---- */
	"CREATE TABLE uprof_processes (id integer NOT NULL PRIMARY KEY, pid integer,"
	" comm varchar(16), program varchar(4096), samples bigint);"
	"CREATE TABLE uprof_task_instances (id integer NOT NULL PRIMARY KEY, thread_id bigint,"
	" domain varchar(256), name varchar(256), begin_time bigint, end_time bigint,"
	" samples bigint);"
	"CREATE TABLE uprof_pauses (id integer NOT NULL PRIMARY KEY, from_time bigint,"
	" to_time bigint);"
	/* the OpenMP slices of a --trace openmp session, as trace.json's (kind: 1 region,
	 * 2 wait, 3 target, 4 data, 5 submit, 6 device record) */
	"CREATE TABLE uprof_openmp_slices (id integer NOT NULL PRIMARY KEY, kind integer,"
	" thread_id bigint, pid integer, tid integer, device integer, depth integer,"
	" member integer, begin_time bigint, end_time bigint, count bigint, bytes bigint,"
	" site varchar(512), what varchar(64));"
	"CREATE VIEW uprof_tasks_view AS SELECT t.id, th.pid, th.tid, t.domain, t.name,"
	" t.begin_time, t.end_time, t.end_time - t.begin_time AS elapsed_time, t.samples"
	" FROM uprof_task_instances t LEFT JOIN threads th ON th.id = t.thread_id;";

const char rpt_sqlite_indexes[] =
	"CREATE INDEX samples_symbol ON samples (symbol_id);"
	"CREATE INDEX samples_thread ON samples (thread_id);"
	"CREATE INDEX call_paths_parent ON call_paths (parent_id);"
	"CREATE INDEX symbols_dso ON symbols (dso_id);";
/* clang-format on */
