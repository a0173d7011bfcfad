METRIC_SRCS := lib/metric/expr.c lib/metric/config.c lib/metric/set.c lib/metric/roofline.c lib/metric/roofline_bench.c \
	lib/metric/pcm_table.c lib/metric/pcm_series.c lib/metric/views.c lib/metric/reader.c
METRIC_LIB := $(BUILD)/lib/libuprof_metric.a
$(METRIC_LIB): $(call objs,$(METRIC_SRCS))
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^
LIBS += $(METRIC_LIB)
