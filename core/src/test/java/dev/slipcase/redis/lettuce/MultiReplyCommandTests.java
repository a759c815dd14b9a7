package dev.slipcase.redis.lettuce;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.ConnectionEvents;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.ValueOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandEncoder;
import io.lettuce.core.protocol.CommandKeyword;
import io.lettuce.core.protocol.CommandHandler;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.DefaultEndpoint;
import io.lettuce.core.resource.ClientResources;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests {@link BlockCommand}, {@link BatchCommand} and {@link ValueReads} in Lettuce's own pipeline (its
 * {@link CommandEncoder} and a {@link MultiReplyCommandHandler} put in place of its
 * {@link CommandHandler}), fed the bytes a server sends, including those no test server can be
 * made to send at a chosen moment: a RESP3 push between replies, a reset after some replies, a
 * replay that fails, an {@code EXEC} answering for another number of commands.
 */
class MultiReplyCommandTests {

	private ClientResources resources;

	private EmbeddedChannel channel;

	@BeforeEach
	void openChannel() throws Exception {
		this.resources = ClientResources.create();
		this.channel = channel(true);
	}

	/** A channel with Lettuce's encoder and handler, the handler replaced by a multi-reply one or not. */
	private EmbeddedChannel channel(boolean multiReply) throws Exception {
		DefaultEndpoint endpoint = new DefaultEndpoint(ClientOptions.create(), this.resources) {

			@Override
			public void notifyChannelActive(Channel channel) {
			}

		};
		EmbeddedChannel channel = new EmbeddedChannel(false, false);
		channel.pipeline()
			.addLast(new CommandEncoder(), new CommandHandler(ClientOptions.create(), this.resources, endpoint));
		if (multiReply) {
			assertThat(MultiReplyCommandHandler.install(channel)).isTrue();
		}
		channel.register();
		return channel;
	}

	@AfterEach
	void closeChannel() {
		this.channel.finishAndReleaseAll();
		this.resources.shutdown();
	}

	@Test
	void aBlockReadsItsRepliesAroundPushMessagesAndLeavesTheStackEmpty() {
		CompletableFuture<TransactionResult> result = new CompletableFuture<>();
		this.channel.writeOutbound(block(incrementsOfK(2), result));
		assertThat(written()).isEqualTo("*1 $5 MULTI *2 $4 INCR $1 k *2 $4 INCR $1 k *1 $4 EXEC ");
		receive("+OK\r\n+QUEUED\r\n>2\r\n$10\r\ninvalidate\r\n*1\r\n$1\r\nk\r\n+QUEUED\r\n");
		assertThat(result).isNotDone();
		receive(">2\r\n$10\r\ninvalidate\r\n_\r\n*2\r\n:1\r\n:2\r\n");
		assertThat(replies(result)).containsExactly(1L, 2L);
		assertThat(stack()).isZero();
	}

	@Test
	void aBlockWritesEachCommandFromItsArgumentsAndKeepsEachReplyAsAValue() {
		QueuedWrites writes = QueuedWrites.of(4, 12);
		writes.command(CommandType.SET).add(bytes("k")).add(bytes("v")).add(CommandKeyword.PX).add(1500);
		writes.command(CommandType.HPEXPIRE).add(bytes("h")).add(1500).add(CommandKeyword.FIELDS).add(1).add(bytes("f"));
		writes.command(CommandType.INCRBY).add(bytes("n")).add(-12);
		writes.command(CommandType.GET).add(bytes("k"));
		CompletableFuture<TransactionResult> result = new CompletableFuture<>();
		this.channel.writeOutbound(block(writes, result));
		assertThat(written()).isEqualTo("*1 $5 MULTI *5 $3 SET $1 k $1 v $2 PX $4 1500 "
				+ "*6 $8 HPEXPIRE $1 h $4 1500 $6 FIELDS $1 1 $1 f *3 $6 INCRBY $1 n $3 -12 *2 $3 GET $1 k *1 $4 EXEC ");
		receive("+OK\r\n+QUEUED\r\n+QUEUED\r\n+QUEUED\r\n+QUEUED\r\n");
		receive("*4\r\n+OK\r\n*1\r\n:1\r\n:-11\r\n$1\r\nv\r\n");
		List<Object> replies = replies(result);
		assertThat(replies).hasSize(4);
		assertThat(replies.get(0)).isEqualTo("OK");
		assertThat(replies.get(1)).isEqualTo(List.of(1L));
		assertThat(replies.get(2)).isEqualTo(-11L);
		assertThat(replies.get(3)).isEqualTo(bytes("v"));
		assertThat(stack()).isZero();
	}

	@Test
	void anErrorElementOfExecIsItsCommandsReplyAndTheOthersRun() {
		CompletableFuture<TransactionResult> result = blockAnswered(incrementsOfK(2),
				"+OK\r\n+QUEUED\r\n+QUEUED\r\n*2\r\n-ERR value is not an integer or out of range\r\n:1\r\n");
		List<Object> replies = replies(result);
		assertThat(replies.get(0)).isInstanceOf(RedisCommandExecutionException.class)
			.asString()
			.contains("not an integer");
		assertThat(replies.get(1)).isEqualTo(1L);
		assertThat(stack()).isZero();
	}

	@Test
	void aCommandRefusedWhenQueuedFailsTheBlockWithExecAbortCarryingItsError() {
		CompletableFuture<TransactionResult> result = blockAnswered(incrementsOfK(2),
				"+OK\r\n+QUEUED\r\n-MOVED 7186 127.0.0.1:7001\r\n");
		assertThat(result).isNotDone();
		receive("-EXECABORT Transaction discarded because of previous errors.\r\n");
		Throwable failure = failure(result);
		assertThat(failure).isInstanceOf(RedisCommandExecutionException.class).hasMessageStartingWith("EXECABORT");
		assertThat(RedisFailures.isBlockNotApplied(failure)).isTrue();
		assertThat(failure.getSuppressed()).singleElement().asString().contains("MOVED 7186");
		assertThat(stack()).isZero();
	}

	@Test
	void aBlockWhoseExecAnswersForAnotherNumberOfCommandsFailsAsUnknown() {
		CompletableFuture<TransactionResult> result = blockAnswered(incrementsOfK(2),
				"+OK\r\n+QUEUED\r\n+QUEUED\r\n*1\r\n:1\r\n");
		assertThat(failure(result)).isInstanceOf(UnacknowledgedWriteException.class)
			.hasMessageContaining("1 replies to a block of 2");
		assertThat(stack()).isZero();
	}

	@ParameterizedTest
	@ValueSource(strings = { ":1\r\n", "+OK\r\n", "$2\r\nno\r\n" })
	void aBlockWhoseExecAnswersWithNoArrayFailsAsUnknown(String exec) {
		CompletableFuture<TransactionResult> result = blockAnswered(incrementsOfK(2),
				"+OK\r\n+QUEUED\r\n+QUEUED\r\n" + exec);
		assertThat(failure(result)).isInstanceOf(UnacknowledgedWriteException.class)
			.hasMessageContaining("not an array");
		assertThat(stack()).isZero();
	}

	@Test
	void aDiscardedTransactionFailsAsUnknown() {
		CompletableFuture<TransactionResult> result = blockAnswered(incrementsOfK(1), "+OK\r\n+QUEUED\r\n*-1\r\n");
		assertThat(failure(result)).isInstanceOf(UnacknowledgedWriteException.class).hasMessageContaining("discarded");
		assertThat(stack()).isZero();
	}

	@Test
	void aBlockResetAfterSomeRepliesCancelsItWithoutCallingLettucesWordsAReply() {
		CompletableFuture<TransactionResult> result = blockAnswered(incrementsOfK(2), "+OK\r\n+QUEUED\r\n");
		this.channel.pipeline().fireUserEventTriggered(new ConnectionEvents.Reset());
		assertThat(failure(result)).isInstanceOf(CancellationException.class);
	}

	@Test
	void aBlockWrittenAgainWritesPingAndFailsAsUnacknowledgedWhenItsConnectionFails() {
		CompletableFuture<TransactionResult> result = blockWrittenAgain();
		this.channel.pipeline().fireExceptionCaught(new IOException("Connection reset by peer"));
		assertThat(failure(result)).isInstanceOf(UnacknowledgedWriteException.class);
	}

	@Test
	void aBlockWrittenAgainWritesPingAndFailsAsUnacknowledgedOnceItIsAnswered() {
		CompletableFuture<TransactionResult> result = blockWrittenAgain();
		receive("+PONG\r\n");
		assertThat(failure(result)).isInstanceOf(UnacknowledgedWriteException.class);
		assertThat(stack()).isZero();
	}

	@Test
	void aBlockGivenUpBeforeItIsWrittenWritesPingAndFailsAsCancelled() {
		TransactionBlock decision = new TransactionBlock();
		CompletableFuture<TransactionResult> result = new CompletableFuture<>();
		decision.abandon();
		this.channel.writeOutbound(new BlockCommand(decision, incrementsOfK(1), result, null));
		assertThat(written()).isEqualTo("*1 $4 PING ");
		receive("+PONG\r\n");
		assertThat(failure(result)).isInstanceOf(CancellationException.class);
		assertThat(stack()).isZero();
	}

	@Test
	void aBlockWhoseMultiIsRefusedReadsEveryReplyAndFailsAsUnknown() {
		CompletableFuture<TransactionResult> result = blockAnswered(incrementsOfK(1),
				"-NOPERM no\r\n:7\r\n-ERR EXEC without MULTI\r\n");
		assertThat(failure(result)).isInstanceOf(UnacknowledgedWriteException.class);
		assertThat(stack()).isZero();
	}

	@Test
	void aBlockThroughAStockHandlerWritesPingAlone() throws Exception {
		this.channel.finishAndReleaseAll();
		this.channel = channel(false);
		this.channel.writeOutbound(block(incrementsOfK(2), new CompletableFuture<>()));
		assertThat(written()).isEqualTo("*1 $4 PING ");
	}

	@Test
	void aBatchHandsEachReplyToItsCommandAroundPushMessagesAndErrors() {
		SlipcaseCommand<String, String, String> first = get("a");
		SlipcaseCommand<String, String, String> refused = get("b");
		SlipcaseCommand<String, String, String> third = get("c");
		this.channel.writeOutbound(new BatchCommand<>(List.of(first, refused, third), null));
		assertThat(written()).isEqualTo("*2 $3 GET $1 a *2 $3 GET $1 b *2 $3 GET $1 c ");
		receive("$1\r\n1\r\n>2\r\n$10\r\ninvalidate\r\n_\r\n-WRONGTYPE no\r\n");
		assertThat(first.join()).isEqualTo("1");
		assertThat(failure(refused)).isInstanceOf(RedisCommandExecutionException.class).hasMessageContaining("WRONGTYPE");
		assertThat(third).isNotDone();
		SlipcaseCommand<String, String, String> after = get("d");
		this.channel.writeOutbound(after);
		receive("_\r\n$1\r\n4\r\n");
		assertThat(third.join()).isNull();
		assertThat(after.join()).isEqualTo("4");
		assertThat(stack()).isZero();
	}

	@Test
	void anOutputThatThrowsFailsItsOwnCommandOfABatchAlone() {
		SlipcaseCommand<String, String, String> unreadable = SlipcaseCommand.read(CommandType.GET,
				new ValueOutput<>(StringCodec.UTF8) {

					@Override
					public void set(ByteBuffer bytes) {
						throw new IllegalStateException("cannot read it");
					}

				}, new CommandArgs<>(StringCodec.UTF8).addKey("a"));
		SlipcaseCommand<String, String, Long> write = SlipcaseCommand.write(CommandType.INCR,
				new IntegerOutput<>(StringCodec.UTF8), new CommandArgs<>(StringCodec.UTF8).addKey("k"));
		SlipcaseCommand<String, String, String> read = get("c");
		this.channel.writeOutbound(new BatchCommand<>(List.of(unreadable, write, read), null));
		written();
		receive("$1\r\nx\r\n");
		assertThat(failure(unreadable)).isInstanceOf(IllegalStateException.class);
		assertThat(write).isNotDone();
		receive(":5\r\n$1\r\n3\r\n");
		assertThat(write.join()).isEqualTo(5L);
		assertThat(read.join()).isEqualTo("3");
		assertThat(stack()).isZero();
	}

	@Test
	void aBatchWrittenAgainWritesOnlyTheCommandsStillWithoutAReply() {
		SlipcaseCommand<String, String, String> first = get("a");
		SlipcaseCommand<String, String, String> second = get("b");
		BatchCommand<String, String> batch = new BatchCommand<>(List.of(first, second), null);
		this.channel.writeOutbound(batch);
		written();
		receive("$1\r\n1\r\n");
		handler().getStack().clear(); // as Lettuce drains it for a replay after a reconnect
		this.channel.writeOutbound(batch);
		assertThat(written()).isEqualTo("*2 $3 GET $1 b ");
		receive("$1\r\n2\r\n");
		assertThat(first.join()).isEqualTo("1");
		assertThat(second.join()).isEqualTo("2");
		assertThat(stack()).isZero();
	}

	@Test
	void aBatchOfWritesWrittenAgainWritesPingInPlaceOfEachWrittenWrite() {
		SlipcaseCommand<String, String, Long> write = SlipcaseCommand.write(CommandType.INCR,
				new IntegerOutput<>(StringCodec.UTF8), new CommandArgs<>(StringCodec.UTF8).addKey("k"));
		SlipcaseCommand<String, String, String> read = get("a");
		BatchCommand<String, String> batch = new BatchCommand<>(List.of(write, read), null);
		this.channel.writeOutbound(batch);
		written();
		handler().getStack().clear(); // as Lettuce drains it for a replay after a reconnect
		this.channel.writeOutbound(batch);
		assertThat(written()).isEqualTo("*1 $4 PING *2 $3 GET $1 a ");
		receive("+PONG\r\n$1\r\n1\r\n");
		assertThat(failure(write)).isInstanceOf(UnacknowledgedWriteException.class);
		assertThat(read.join()).isEqualTo("1");
		assertThat(stack()).isZero();
	}

	@Test
	void aBatchThroughAStockHandlerWritesPingAlone() throws Exception {
		this.channel.finishAndReleaseAll();
		this.channel = channel(false);
		SlipcaseCommand<String, String, String> first = get("a");
		SlipcaseCommand<String, String, String> second = get("b");
		this.channel.writeOutbound(new BatchCommand<>(List.of(first, second), null));
		assertThat(written()).isEqualTo("*1 $4 PING ");
	}

	@Test
	void valueReadsStoreEachValueAtItsPositionAroundPushMessages() {
		ValueReads reads = ValueReads.of(3, 5);
		reads.hget(bytes("b"), bytes("f"), 0);
		reads.hmget(bytes("h"), new byte[][] { bytes("x"), bytes("y"), bytes("z") }, new int[] { 4, 1, 3 });
		reads.get(bytes("k"), 2);
		this.channel.writeOutbound(reads);
		assertThat(written())
			.isEqualTo("*3 $4 HGET $1 b $1 f *5 $5 HMGET $1 h $1 x $1 y $1 z *2 $3 GET $1 k ");
		receive("$2\r\nv0\r\n>2\r\n$10\r\ninvalidate\r\n_\r\n*3\r\n$2\r\nv4\r\n$-1\r\n$2\r\nv3\r\n");
		assertThat(reads.values()).isNotDone();
		receive("_\r\n");
		assertThat(reads.values().join()).extracting((value) -> (value != null) ? text(value) : null)
			.containsExactly("v0", null, null, "v3", "v4");
		assertThat(stack()).isZero();
	}

	@Test
	void valueReadsWithAnErrorReplyReadEveryReplyAndThenFail() {
		ValueReads reads = ValueReads.of(2, 2);
		reads.hget(bytes("s"), bytes("f"), 0);
		reads.get(bytes("k"), 1);
		this.channel.writeOutbound(reads);
		written();
		receive("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
		assertThat(reads.values()).isNotDone();
		receive("$1\r\n1\r\n");
		assertThat(failure(reads.values())).isInstanceOf(RedisCommandExecutionException.class)
			.hasMessageContaining("WRONGTYPE");
		assertThat(stack()).isZero();
	}

	@Test
	void valueReadsWrittenAgainWriteEveryReadAgain() {
		ValueReads reads = getsOfAAndB();
		this.channel.writeOutbound(reads);
		written();
		receive("$1\r\n1\r\n");
		handler().getStack().clear(); // as Lettuce drains it for a replay after a reconnect
		this.channel.writeOutbound(reads);
		assertThat(written()).isEqualTo("*2 $3 GET $1 a *2 $3 GET $1 b ");
		receive("$1\r\n3\r\n$1\r\n2\r\n");
		assertThat(reads.values().join()).extracting(MultiReplyCommandTests::text).containsExactly("3", "2");
		assertThat(stack()).isZero();
	}

	@Test
	void valueReadsCancelledBeforeTheyAreWrittenAreNeverWritten() {
		ValueReads reads = ValueReads.of(1, 1);
		reads.get(bytes("a"), 0);
		reads.values().cancel(false);
		this.channel.writeOutbound(reads);
		assertThat(written()).doesNotContain("GET");
		assertThat(reads.isDone()).isTrue();
	}

	@Test
	void valueReadsWhoseReplyHasMoreValuesThanAskedForFailOnceEveryReplyIsRead() {
		ValueReads reads = getsOfAAndB();
		this.channel.writeOutbound(reads);
		written();
		receive("*2\r\n$1\r\n1\r\n$1\r\n2\r\n");
		assertThat(reads.values()).isNotDone();
		receive("$1\r\n3\r\n");
		assertThat(failure(reads.values())).isInstanceOf(IllegalStateException.class);
		assertThat(stack()).isZero();
	}

	@Test
	void valueReadsWhoseHmgetReplyHasFewerValuesThanFieldsFail() {
		ValueReads reads = ValueReads.of(2, 4);
		reads.hmget(bytes("h"), new byte[][] { bytes("x"), bytes("y"), bytes("z") }, new int[] { 0, 1, 2 });
		reads.get(bytes("k"), 3);
		this.channel.writeOutbound(reads);
		written();
		receive("*1\r\n$1\r\n1\r\n$1\r\n2\r\n");
		assertThat(failure(reads.values())).isInstanceOf(IllegalStateException.class).hasMessageContaining("1 values");
		assertThat(stack()).isZero();
	}

	@Test
	void valueReadsFailWithTheirConnection() {
		ValueReads reads = getsOfAAndB();
		this.channel.writeOutbound(reads);
		written();
		receive("$1\r\n1\r\n");
		this.channel.pipeline().fireExceptionCaught(new IOException("Connection reset by peer"));
		assertThat(failure(reads.values())).isInstanceOf(IOException.class);
	}

	@Test
	void valueReadsThroughAStockHandlerWritePingAlone() throws Exception {
		this.channel.finishAndReleaseAll();
		this.channel = channel(false);
		ValueReads reads = getsOfAAndB();
		this.channel.writeOutbound(reads);
		assertThat(written()).isEqualTo("*1 $4 PING ");
	}

	/** {@code GET a} into position 0 and {@code GET b} into position 1. */
	private static ValueReads getsOfAAndB() {
		ValueReads reads = ValueReads.of(2, 2);
		reads.get(bytes("a"), 0);
		reads.get(bytes("b"), 1);
		return reads;
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static String text(byte[] bytes) {
		return new String(bytes, StandardCharsets.UTF_8);
	}

	/** A block of {@code count} {@code INCR k}. */
	private static QueuedWrites incrementsOfK(int count) {
		QueuedWrites writes = QueuedWrites.of(count, count);
		for (int i = 0; i < count; i++) {
			writes.command(CommandType.INCR).add(bytes("k"));
		}
		return writes;
	}

	private static BlockCommand block(QueuedWrites writes, CompletableFuture<TransactionResult> result) {
		return new BlockCommand(new TransactionBlock(), writes, result, null);
	}

	/** Writes a block of {@code writes} and feeds it {@code replies}: its result. */
	private CompletableFuture<TransactionResult> blockAnswered(QueuedWrites writes, String replies) {
		CompletableFuture<TransactionResult> result = new CompletableFuture<>();
		this.channel.writeOutbound(block(writes, result));
		written();
		receive(replies);
		return result;
	}

	/** Writes a block of one {@code INCR}, then again, as Lettuce does after a reconnect: it writes {@code PING}. */
	private CompletableFuture<TransactionResult> blockWrittenAgain() {
		CompletableFuture<TransactionResult> result = new CompletableFuture<>();
		BlockCommand block = block(incrementsOfK(1), result);
		this.channel.writeOutbound(block);
		written();
		handler().getStack().clear(); // as Lettuce drains it for a replay after a reconnect
		this.channel.writeOutbound(block);
		assertThat(written()).isEqualTo("*1 $4 PING ");
		return result;
	}

	private static List<Object> replies(CompletableFuture<TransactionResult> result) {
		assertThat(result).isCompleted();
		return result.join().stream().toList();
	}

	private static SlipcaseCommand<String, String, String> get(String key) {
		return SlipcaseCommand.read(CommandType.GET, new ValueOutput<>(StringCodec.UTF8),
				new CommandArgs<>(StringCodec.UTF8).addKey(key));
	}

	private static Throwable failure(CompletableFuture<?> future) {
		assertThat(future).isDone();
		return future.handle((value, failure) -> failure).join();
	}

	private CommandHandler handler() {
		return this.channel.pipeline().get(CommandHandler.class);
	}

	private int stack() {
		return handler().getStack().size();
	}

	/** What went out since the last call, CRLF shown as a space. */
	private String written() {
		StringBuilder written = new StringBuilder();
		ByteBuf out;
		while ((out = this.channel.readOutbound()) != null) {
			written.append(out.toString(StandardCharsets.US_ASCII));
			out.release();
		}
		return written.toString().replace("\r\n", " ");
	}

	private void receive(String replies) {
		this.channel.writeInbound(Unpooled.copiedBuffer(replies, StandardCharsets.US_ASCII));
	}

}
