package dev.slipcase.redis.architecture;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;

import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.protocol.RedisCommand;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One command path under every template: each command core sends is a {@code SlipcaseCommand}
 * (its concerns steps of it, not command classes of their own), or several of them written as one
 * (the dispatcher's {@code BatchCommand}), or a lane's block or value reads written as one
 * ({@code BlockCommand}, {@code ValueReads}: each falls back to {@code SlipcaseCommand}s); only
 * {@code OrderedDispatcher} hands commands to a Lettuce connection, and the sharded template's
 * {@code set}, {@code get} and {@code incrBy} reach both, as {@code ValueTemplate}'s do. Read from
 * the compiled classes: the calls each operation can make, followed through every class of core
 * (lambdas and overriding methods included).
 */
class CommandPathTests {

	private static final JavaClasses CORE = new ClassFileImporter().importPath(Path.of("target", "classes"));

	private static final String COMMAND = "dev.slipcase.redis.lettuce.SlipcaseCommand";

	private static final String DISPATCHER = "dev.slipcase.redis.lettuce.OrderedDispatcher";

	private static final String BLOCK = "dev.slipcase.redis.lettuce.BlockCommand";

	private static final String BATCH = "dev.slipcase.redis.lettuce.BatchCommand";

	private static final String READS = "dev.slipcase.redis.lettuce.ValueReads";

	private static final String MULTI_REPLY = "dev.slipcase.redis.lettuce.MultiReplyCommand";

	private static final String LANE = "dev.slipcase.redis.lettuce.TransactionLane";

	@Test
	void theCommandClassesAreSlipcaseCommandAndTheMultiReplyCommandsOfThem() {
		classes().that()
			.areAssignableTo(RedisCommand.class)
			.should()
			.haveFullyQualifiedName(COMMAND)
			.orShould()
			.haveFullyQualifiedName(BLOCK)
			.orShould()
			.haveFullyQualifiedName(BATCH)
			.orShould()
			.haveFullyQualifiedName(MULTI_REPLY)
			.orShould()
			.haveFullyQualifiedName(READS)
			.check(CORE);
		noClasses().that()
			.doNotHaveFullyQualifiedName(COMMAND)
			.and()
			.doNotHaveFullyQualifiedName(BLOCK)
			.and()
			.doNotHaveFullyQualifiedName(BATCH)
			.and()
			.doNotHaveFullyQualifiedName(LANE)
			.and()
			.doNotHaveFullyQualifiedName(DISPATCHER)
			.and()
			.doNotHaveFullyQualifiedName(READS)
			.should()
			.callConstructorWhere(target(owner(assignableTo(RedisCommand.class))))
			.because("a command's concerns are steps of SlipcaseCommand (CommandStep), not classes of their own; "
					+ "a dispatcher's batch is SlipcaseCommands written as one, a lane's block and value reads write "
					+ "themselves")
			.check(CORE);
		noClasses().that()
			.haveFullyQualifiedName(LANE)
			.should()
			.callConstructorWhere(target(owner(assignableTo(RedisCommand.class))).and(target(owner(not(name(BLOCK))))))
			.check(CORE);
		noClasses().that()
			.haveFullyQualifiedName(READS)
			.should()
			.callConstructorWhere(target(owner(assignableTo(RedisCommand.class))).and(target(owner(not(name(READS)))))
				.and(target(owner(not(name(MULTI_REPLY))))))
			.check(CORE);
		noClasses().that()
			.haveFullyQualifiedName(DISPATCHER)
			.should()
			.callConstructorWhere(target(owner(assignableTo(RedisCommand.class))).and(target(owner(not(name(BATCH))))))
			.check(CORE);
	}

	@Test
	void onlyTheDispatcherHandsCommandsToLettuce() {
		noClasses().that()
			.doNotHaveFullyQualifiedName(DISPATCHER)
			.should()
			.callMethodWhere(target(name("dispatch")).and(target(owner(assignableTo(StatefulConnection.class)))))
			.check(CORE);
	}

	@ParameterizedTest(name = "{0}.{1}")
	@CsvSource({ "dev.slipcase.redis.template.ValueTemplate, set", "dev.slipcase.redis.template.ValueTemplate, get",
			"dev.slipcase.redis.template.ValueTemplate, incrementBy", "dev.slipcase.redis.sharded.ShardedTemplate, set",
			"dev.slipcase.redis.sharded.ShardedTemplate, get", "dev.slipcase.redis.sharded.ShardedTemplate, incrBy" })
	void anOperationMakesSlipcaseCommandsAndSendsThemThroughTheDispatcher(String type, String method) {
		Set<String> reached = reachedFrom(CORE.get(type), method);
		assertThat(reached).as("what %s.%s reaches", type, method)
			.anyMatch((called) -> called.startsWith(COMMAND + ".read(") || called.startsWith(COMMAND + ".write(")
					|| called.startsWith(COMMAND + ".inBlock("))
			.anyMatch((called) -> called.startsWith(DISPATCHER + ".send"));
	}

	/** Every method and constructor of core that {@code type}'s methods named {@code method} can call. */
	private static Set<String> reachedFrom(JavaClass type, String method) {
		Set<JavaCodeUnit> seen = new HashSet<>();
		Deque<JavaCodeUnit> next = new ArrayDeque<>();
		for (JavaMethod start : type.getMethods()) {
			if (start.getName().equals(method)) {
				next.add(start);
			}
		}
		while (!next.isEmpty()) {
			JavaCodeUnit unit = next.poll();
			if (!seen.add(unit)) {
				continue;
			}
			for (JavaAccess<?> access : accesses(unit)) {
				if (access.getTarget() instanceof AccessTarget.CodeUnitAccessTarget target) {
					JavaClass owner = target.getOwner();
					if (!owner.getPackageName().startsWith("dev.slipcase.redis")) {
						continue;
					}
					target.resolveMember().ifPresent(next::add);
					for (JavaClass subclass : owner.getAllSubclasses()) {
						for (JavaCodeUnit overriding : subclass.getCodeUnits()) {
							if (overriding.getName().equals(target.getName())
									&& overriding.getRawParameterTypes().equals(target.getRawParameterTypes())) {
								next.add(overriding);
							}
						}
					}
				}
			}
			// the body of a lambda is a method of its own, named after the method it is written in
			String lambdas = "lambda$" + (unit.isConstructor() ? "new" : unit.getName()) + "$";
			for (JavaCodeUnit lambda : unit.getOwner().getCodeUnits()) {
				if (lambda.getName().startsWith(lambdas)) {
					next.add(lambda);
				}
			}
		}
		Set<String> names = new TreeSet<>();
		seen.forEach((unit) -> names.add(unit.getFullName()));
		return names;
	}

	private static Set<JavaAccess<?>> accesses(JavaCodeUnit unit) {
		Set<JavaAccess<?>> accesses = new HashSet<>(unit.getCallsFromSelf());
		accesses.addAll(unit.getMethodReferencesFromSelf());
		accesses.addAll(unit.getConstructorReferencesFromSelf());
		return accesses;
	}

}
